import type { AuditRecord, Member, Workspace } from '@parley/protocol';
import { WORKSPACE_OPERATIONS } from '@parley/protocol/operations';
import type {
  AddWorkspaceMemberInput,
  AddWorkspaceMemberResponse,
  CreateWorkspaceInput,
  EmptyResponse,
  GetAuditRecordsInput,
  GetAuditRecordsResponse,
  IdInput,
  ListWorkspaceMembersResponse,
  ListWorkspacesResponse,
  ListWorkspaceUsagesResponse,
  NoInput,
  PageInput,
  UpdateWorkspaceInput,
  UpdateWorkspaceMemberInput,
  WorkspaceInvitation,
} from './admin-types.js';
import { apiClass, type Lists, type Sends } from './api-class.js';

/**
 * Workspaces (`/v1/admin/workspaces`) and their members (`/v1/admin/workspace-members`). Operations on a
 * workspace named in the path send that id as `x-workspace-id`, whatever the default.
 */
export type WorkspacesApi = {
  /** Lists the workspaces the token's account belongs to (no `x-workspace-id` needed). */
  listWorkspaces: Lists<PageInput | undefined, ListWorkspacesResponse, Workspace>;
  /** Creates a workspace owned by the token's account; answers the workspace (no wrapper). */
  createWorkspace: Sends<CreateWorkspaceInput, Workspace>;
  /** Gets a workspace (no wrapper). */
  getWorkspace: Sends<IdInput, Workspace>;
  /** Changes a workspace's settings; answers the workspace (no wrapper). */
  updateWorkspace: Sends<UpdateWorkspaceInput, Workspace>;
  /** Deletes a workspace and everything in it (owner only). */
  deleteWorkspace: Sends<IdInput, EmptyResponse>;
  /** A workspace's usage figures for the current period. */
  listWorkspaceUsages: Sends<IdInput, ListWorkspaceUsagesResponse>;
  /** A workspace's audit records, newest first (manager and above): await for a page, `for await` for all. */
  getAuditRecords: Lists<GetAuditRecordsInput, GetAuditRecordsResponse, AuditRecord>;

  // ---- members ----

  /** Lists the workspace's members and pending invitations. */
  listWorkspaceMembers: Lists<PageInput | undefined, ListWorkspaceMembersResponse, Member>;
  /** The caller's own membership of the workspace (`GET /workspace-members/me`). */
  getWorkspaceMember: Sends<NoInput | undefined, Member>;
  /** A member of the workspace by member id. */
  getWorkspaceMemberById: Sends<IdInput, Member>;
  /**
   * Invites a member by e-mail: the answer carries a one-time `invitation.code` to hand to that person
   * (see `acceptInvitation`); the member is `invited` and holds no role until the person accepts.
   */
  addWorkspaceMember: Sends<AddWorkspaceMemberInput, AddWorkspaceMemberResponse>;
  /** Changes a member's role. */
  updateWorkspaceMember: Sends<UpdateWorkspaceMemberInput, Member>;
  /**
   * A new invitation code for a member who has not joined yet (valid 7 days); the earlier codes stop working.
   * Only a hash of a code is stored, so a lost code is never shown again: this issues another.
   */
  renewWorkspaceInvitation: Sends<IdInput, WorkspaceInvitation>;
  /** Removes a member (or withdraws an invitation). */
  removeWorkspaceMember: Sends<IdInput, EmptyResponse>;
};

/** Sends each method of `WorkspacesApi` as its entry of `WORKSPACE_OPERATIONS`. */
export const WorkspacesApi = apiClass(WORKSPACE_OPERATIONS).implementing<WorkspacesApi>({
  listWorkspaces: 'workspaces',
  getAuditRecords: 'records',
  listWorkspaceMembers: 'members',
});
