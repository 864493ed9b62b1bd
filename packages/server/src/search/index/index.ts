export { readModelRow } from './common.js';
export { createPassageIndex, type PassageIndexOptions } from './create.js';
export { foldText, ftsMatchExpression, isStopword, queryTerms } from './lexical-query.js';
export * from './passage-index.js';
export { type PostgresPassageIndexOptions, postgresPassageIndex } from './postgres-passage-index.js';
export { type SqlitePassageIndexOptions, sqlitePassageIndex } from './sqlite-passage-index.js';
export { applyGraphChange } from './sqlite-vector.js';
export { type GraphChange, remoteGraphs, type VectorGraphs } from './vector-graphs.js';
