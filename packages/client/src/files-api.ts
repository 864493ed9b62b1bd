import { FILE_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/** The files of a bot (`/v1/files`, `x-bot-id`: the client's `botId` or `options.botId`): records, tags, search, passages. */
export type FilesApi = ApiOf<typeof FILE_OPERATIONS>;

/** Sends each method of `FilesApi` as its entry of `FILE_OPERATIONS`. */
export const FilesApi = apiClass(FILE_OPERATIONS);
