// `@parley/client/chat`: the Chat API client without `uploadFile` (`ChatApiClient`), its errors and its types,
// for a browser bundle that counts its bytes (the webchat). Every name here is also exported by the package's
// main entry, from the same modules.
export { ChatApiClient } from './chat-api-client.js';
export type * from './chat-types.js';
export * from './errors.js';
export type { ListenOptions } from './event-stream.js';
export * from './local-errors.js';
