import Type from 'typebox';
import { type Row, renderTable } from './markdown.js';
import { extension, VARIABLE_NAMES, type VariableName, variableSchema } from './schema.js';

/** The page that lists the variables, relative to the repository's root. */
export const CONFIG_DOC = 'docs/configuration.md';
/** The heading of CONFIG_DOC whose table lists the variables. */
export const CONFIG_HEADING = '# Configuration';
/** The configuration table's header row. */
export const CONFIG_TABLE_HEADER: Row = ['variable', 'default', 'accepts', 'meaning'];

const code = (value: unknown) => `\`${String(value)}\``;

/** A variable's default as the configuration page states it. */
function defaultText(name: VariableName): string {
  const stated = extension(name, 'x-default');
  if (stated !== undefined) return stated;
  const schema = variableSchema(name);
  if (!('default' in schema)) return 'unset';
  return schema.default === '' ? 'none' : code(schema.default);
}

/** The values a variable accepts, from its schema: range, allowed values, length and format. */
function acceptsText(name: VariableName): string {
  const schema = variableSchema(name);
  const { minimum, maximum, minLength, maxLength } = schema;
  if (Type.IsInteger(schema) || Type.IsNumber(schema)) {
    const kind = Type.IsInteger(schema) ? 'integer' : 'number';
    return maximum === Number.MAX_SAFE_INTEGER ? `${kind} ≥ ${minimum}` : `${kind} ${minimum}–${maximum}`;
  }
  if (Type.IsBoolean(schema)) return '`true` or `false` (`1`, `0`)';
  if (Type.IsEnum(schema)) return schema.enum.map(code).join(', ');
  const length =
    minLength !== undefined && maxLength !== undefined
      ? `${minLength}–${maxLength} characters`
      : minLength !== undefined
        ? `at least ${minLength} characters`
        : maxLength !== undefined
          ? `at most ${maxLength} characters`
          : undefined;
  const parts = [length, extension(name, 'x-accepts')].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : 'text';
}

/** What a variable means, from its description (and the older name it is also read from). */
function meaningText(name: VariableName): string {
  const description = String(variableSchema(name).description ?? '');
  const alias = extension(name, 'x-alias');
  return alias === undefined ? description : `${description}; ${code(alias)} is read when it is unset`;
}

/** The configuration table's row of each variable, in schema order. */
export function configTableRows(): Row[] {
  return VARIABLE_NAMES.map((name) => [code(name), defaultText(name), acceptsText(name), meaningText(name)]);
}

/** The configuration page's table (docs/configuration.md), generated from CONFIG_SCHEMA. */
export function renderConfigTable(): string {
  return renderTable(CONFIG_TABLE_HEADER, configTableRows());
}

/** Markdown as plain text: no backticks, links as their text. */
const plain = (markdown: string) => markdown.replace(/`/g, '').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');

/**
 * The environment variables the service reads, each with what it means, accepts and defaults to, as plain
 * text (for `parley --help`); generated from CONFIG_SCHEMA.
 */
export const CONFIG_VARIABLES: Readonly<Record<VariableName, string>> = Object.freeze(
  Object.fromEntries(
    VARIABLE_NAMES.map((name) => [
      name,
      plain(`${meaningText(name)} [${acceptsText(name)}; default ${defaultText(name)}]`),
    ]),
  ) as Record<VariableName, string>,
);
