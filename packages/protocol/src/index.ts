export * from './admin.js';
export * from './chat.js';
export * from './common.js';
export * from './errors.js';
export * from './files.js';
export * from './inbox.js';
export * from './search.js';
export * from './webchat-config.js';
