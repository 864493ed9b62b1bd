import type { AuditRecord, Member, Workspace } from '@parley/protocol';
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
} from './admin-types.js';
import { apiClass } from './api-class.js';
import type { PagePromise, RequestOptions } from './core.js';
import { WORKSPACE_OPERATIONS } from './operations.js';

/**
 * Workspaces (`/v1/admin/workspaces`) and their members (`/v1/admin/workspace-members`). Operations on a
 * workspace named in the path send that id as `x-workspace-id`, whatever the default.
 */
export interface WorkspacesApi {
  /** Lists the workspaces the token's account belongs to (no `x-workspace-id` needed). */
  listWorkspaces(input?: PageInput, options?: RequestOptions): PagePromise<ListWorkspacesResponse, Workspace>;
  /** Creates a workspace owned by the token's account; answers the workspace (no wrapper). */
  createWorkspace(input: CreateWorkspaceInput, options?: RequestOptions): Promise<Workspace>;
  /** Gets a workspace (no wrapper). */
  getWorkspace(input: IdInput, options?: RequestOptions): Promise<Workspace>;
  /** Changes a workspace's settings; answers the workspace (no wrapper). */
  updateWorkspace(input: UpdateWorkspaceInput, options?: RequestOptions): Promise<Workspace>;
  /** Deletes a workspace and everything in it (owner only). */
  deleteWorkspace(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** A workspace's usage figures for the current period. */
  listWorkspaceUsages(input: IdInput, options?: RequestOptions): Promise<ListWorkspaceUsagesResponse>;
  /** A workspace's audit records, newest first (manager and above): await for a page, `for await` for all. */
  getAuditRecords(
    input: GetAuditRecordsInput,
    options?: RequestOptions,
  ): PagePromise<GetAuditRecordsResponse, AuditRecord>;

  // ---- members ----

  /** Lists the workspace's members and pending invitations. */
  listWorkspaceMembers(
    input?: PageInput,
    options?: RequestOptions,
  ): PagePromise<ListWorkspaceMembersResponse, Member>;
  /** The caller's own membership of the workspace (`GET /workspace-members/me`). */
  getWorkspaceMember(input?: NoInput, options?: RequestOptions): Promise<Member>;
  /** A member of the workspace by member id. */
  getWorkspaceMemberById(input: IdInput, options?: RequestOptions): Promise<Member>;
  /**
   * Invites a member by e-mail: the answer carries a one-time `invitation.code` to hand to that person
   * (see `acceptInvitation`); the member is `invited` and holds no role until the person accepts.
   */
  addWorkspaceMember(
    input: AddWorkspaceMemberInput,
    options?: RequestOptions,
  ): Promise<AddWorkspaceMemberResponse>;
  /** Changes a member's role. */
  updateWorkspaceMember(input: UpdateWorkspaceMemberInput, options?: RequestOptions): Promise<Member>;
  /** Removes a member (or withdraws an invitation). */
  removeWorkspaceMember(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
}

/** Sends each method of `WorkspacesApi` as its entry of `WORKSPACE_OPERATIONS`. */
export const WorkspacesApi = apiClass(WORKSPACE_OPERATIONS).implementing<WorkspacesApi>({
  listWorkspaces: 'workspaces',
  getAuditRecords: 'records',
  listWorkspaceMembers: 'members',
});
