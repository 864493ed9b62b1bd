import Type, { type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { IssueList } from './issues.js';
import {
  type ConfigVariables,
  extension,
  VARIABLE_NAMES,
  type VariableName,
  variableSchema,
} from './schema.js';

/** The process environment, or any map of variables. */
export type Env = Record<string, string | undefined>;

/** The variables read from an environment, and which of them were set (blank counts as unset). */
export interface ReadVariables {
  values: ConfigVariables;
  set: ReadonlySet<VariableName>;
}

/** The trimmed value of `name` (or of its older alias), undefined when unset or blank. */
function rawValue(env: Env, name: VariableName): string | undefined {
  const alias = extension(name, 'x-alias');
  for (const key of alias === undefined ? [name] : [name, alias]) {
    const value = env[key]?.trim();
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** A raw value as the schema's type: integers and decimals as written out, booleans and enums in any case. */
function convert(schema: TSchema, raw: string): { shown: string; value: unknown } {
  if (Type.IsInteger(schema)) return { shown: raw, value: /^-?\d+$/.test(raw) ? Number(raw) : raw };
  if (Type.IsNumber(schema)) return { shown: raw, value: /^\d*\.?\d+$/.test(raw) ? Number(raw) : raw };
  const lower = raw.toLowerCase();
  if (Type.IsBoolean(schema)) {
    const value =
      lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : lower;
    return { shown: lower, value };
  }
  if (Type.IsEnum(schema)) return { shown: lower, value: lower };
  return { shown: raw, value: raw };
}

/** Fills `{value}`, `{keyword}` and `{enum|or}` placeholders of a message from the schema. */
function fill(template: string, schema: Record<string, unknown>, shown: string): string {
  return template.replace(/\{(\w+)(\|or)?\}/g, (_match, key: string, or: string | undefined) => {
    if (key === 'value') return shown;
    const fact = schema[key];
    if (!Array.isArray(fact)) return String(fact);
    if (!or || fact.length < 2) return fact.join(', ');
    return `${fact.slice(0, -1).join(', ')} or ${fact.at(-1)}`;
  });
}

/** Why `shown` was refused: the schema's `x-invalid` message, or one derived from its type. */
export function invalidMessage(name: VariableName, shown: string): string {
  const schema = variableSchema(name);
  const custom = extension(name, 'x-invalid');
  if (custom !== undefined) return fill(custom, schema, shown);
  if (Type.IsInteger(schema))
    return fill('"{value}" must be an integer from {minimum} to {maximum}', schema, shown);
  if (Type.IsNumber(schema))
    return fill('"{value}" must be a number from {minimum} to {maximum}', schema, shown);
  if (Type.IsBoolean(schema)) return fill('"{value}" must be true or false', schema, shown);
  if (Type.IsEnum(schema)) return fill('"{value}" must be one of {enum}', schema, shown);
  return fill('"{value}" is not accepted', schema, shown);
}

/**
 * Reads every variable of the schema from `env`: converts it to its type and checks it against the schema.
 * A bad value is reported to `issues` and replaced by the default (undefined without one).
 * @example readVariables({ PORT: '8080' }, issues).values.PORT // 8080
 */
export function readVariables(env: Env, issues: IssueList): ReadVariables {
  const values: Record<string, unknown> = {};
  const set = new Set<VariableName>();
  for (const name of VARIABLE_NAMES) {
    const schema = variableSchema(name);
    const raw = rawValue(env, name);
    values[name] = schema.default;
    if (raw === undefined) continue;
    set.add(name);
    const { shown, value } = convert(schema, raw);
    if (Value.Check(schema, value)) values[name] = value;
    else issues.add(name, invalidMessage(name, shown));
  }
  return { values: values as ConfigVariables, set };
}
