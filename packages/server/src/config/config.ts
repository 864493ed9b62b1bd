/**
 * The service's configuration, the public entry of config/: the variables' schema (schema.ts, the one
 * source of every variable's facts), loading and checking them (load.ts) and the parsed shape (shape.ts).
 */
export { CONFIG_VARIABLES } from './docs.js';
export { ConfigError, type ConfigIssue } from './issues.js';
export { loadConfig } from './load.js';
export { parseOrigins } from './origins.js';
export type { Env } from './read.js';
export { CONFIG_SCHEMA, type ConfigVariables, EMBEDDERS, LOG_LEVELS, type VariableName } from './schema.js';
export { CONFIG_SHAPE, type Config, type LogLevel, S3_SETTINGS, type S3Settings } from './shape.js';
