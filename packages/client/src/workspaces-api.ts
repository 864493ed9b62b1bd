import { WORKSPACE_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/**
 * Workspaces (`/v1/admin/workspaces`) and their members (`/v1/admin/workspace-members`). Operations on a
 * workspace named in the path send that id as `x-workspace-id`, whatever the default.
 */
export type WorkspacesApi = ApiOf<typeof WORKSPACE_OPERATIONS>;

/** Sends each method of `WorkspacesApi` as its entry of `WORKSPACE_OPERATIONS`. */
export const WorkspacesApi = apiClass(WORKSPACE_OPERATIONS);
