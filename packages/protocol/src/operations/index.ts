// The operations of the API, read by the server's routes and sent by the client (`@parley/protocol/operations`).
export * from './admin.js';
export * from './chat.js';
export * from './files.js';
export * from './operation.js';
