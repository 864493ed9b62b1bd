import Type, { type Static, type TSchema } from 'typebox';
import { CHAT_VARIABLES } from './variables/chat.js';
import { FILES_VARIABLES } from './variables/files.js';
import { METRICS_VARIABLES } from './variables/metrics.js';
import { SEARCH_VARIABLES } from './variables/search.js';
import { HTTP_VARIABLES, SERVICE_VARIABLES } from './variables/service.js';
import { SESSION_VARIABLES } from './variables/sessions.js';

export { EMBEDDERS } from './variables/search.js';
export { LOG_LEVELS } from './variables/service.js';

/**
 * Every environment variable the service reads, as one TypeBox schema: the single source of each variable's
 * type, range, allowed values, format, default and description. `loadConfig` validates against it,
 * `parley --help` lists it and the table of docs/configuration.md is generated from it
 * (`npm run docs:tables -w @parley/server`; `readme.test.ts` fails when they differ).
 *
 * Property order is the order of that table and of the issues a bad environment reports. A variable
 * with a `default` is required in {@link ConfigVariables}; one without is `Type.Optional` (unset = undefined).
 * Besides JSON Schema keywords a variable may carry:
 * - `x-invalid`: the message when a value is refused, with `{value}` and `{keyword}` placeholders
 *   (`{enum|or}` lists the allowed values as "a, b or c"); without it the message is derived from the type;
 * - `x-default`: how the table states a default that is not a plain value ("generated", "unlimited"…);
 * - `x-accepts`: how the table states the format a string must have, beside its length bounds;
 * - `x-alias`: an older variable read when this one is unset.
 */
export const CONFIG_SCHEMA = Type.Object({
  ...SERVICE_VARIABLES,
  ...FILES_VARIABLES,
  ...SEARCH_VARIABLES,
  ...CHAT_VARIABLES,
  ...HTTP_VARIABLES,
  ...SESSION_VARIABLES,
  ...METRICS_VARIABLES,
});

/** The settings as read from the environment: typed values, defaults applied. */
export type ConfigVariables = Static<typeof CONFIG_SCHEMA>;

/** Name of an environment variable the service reads. */
export type VariableName = keyof typeof CONFIG_SCHEMA.properties;

/** The variables in table order. */
export const VARIABLE_NAMES = Object.keys(CONFIG_SCHEMA.properties) as VariableName[];

/** The schema of one variable. */
export function variableSchema(name: VariableName): TSchema & Record<string, unknown> {
  const schema: TSchema = CONFIG_SCHEMA.properties[name];
  return schema as TSchema & Record<string, unknown>;
}

/** A custom `x-…` keyword of a variable's schema, when it is a string. */
export function extension(
  name: VariableName,
  keyword: 'x-invalid' | 'x-default' | 'x-accepts' | 'x-alias',
): string | undefined {
  const value = variableSchema(name)[keyword];
  return typeof value === 'string' ? value : undefined;
}
