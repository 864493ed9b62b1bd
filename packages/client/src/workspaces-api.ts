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
import { Api, type PagePromise, type RequestOptions } from './core.js';
import { WORKSPACE_OPERATIONS as OPS } from './operations.js';

/**
 * Workspaces (`/v1/admin/workspaces`) and their members (`/v1/admin/workspace-members`). Operations on a
 * workspace named in the path send that id as `x-workspace-id`, whatever the default.
 */
export class WorkspacesApi extends Api {
  /** Lists the workspaces the token's account belongs to (no `x-workspace-id` needed). */
  listWorkspaces(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListWorkspacesResponse, Workspace> {
    return this.core.list(OPS.listWorkspaces, input, options, 'workspaces');
  }

  /** Creates a workspace owned by the token's account; answers the workspace (no wrapper). */
  async createWorkspace(input: CreateWorkspaceInput, options?: RequestOptions): Promise<Workspace> {
    return this.core.send(OPS.createWorkspace, input, options);
  }

  /** Gets a workspace (no wrapper). */
  async getWorkspace(input: IdInput, options?: RequestOptions): Promise<Workspace> {
    return this.core.send(OPS.getWorkspace, input, options);
  }

  /** Changes a workspace's settings; answers the workspace (no wrapper). */
  async updateWorkspace(input: UpdateWorkspaceInput, options?: RequestOptions): Promise<Workspace> {
    return this.core.send(OPS.updateWorkspace, input, options);
  }

  /** Deletes a workspace and everything in it (owner only). */
  async deleteWorkspace(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteWorkspace, input, options);
  }

  /** A workspace's usage figures for the current period. */
  async listWorkspaceUsages(input: IdInput, options?: RequestOptions): Promise<ListWorkspaceUsagesResponse> {
    return this.core.send(OPS.listWorkspaceUsages, input, options);
  }

  /** A workspace's audit records, newest first (manager and above): await for a page, `for await` for all. */
  getAuditRecords(
    input: GetAuditRecordsInput,
    options?: RequestOptions,
  ): PagePromise<GetAuditRecordsResponse, AuditRecord> {
    return this.core.list(OPS.getAuditRecords, input, options, 'records');
  }

  // ---- members ----

  /** Lists the workspace's members and pending invitations. */
  listWorkspaceMembers(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListWorkspaceMembersResponse, Member> {
    return this.core.list(OPS.listWorkspaceMembers, input, options, 'members');
  }

  /** The caller's own membership of the workspace (`GET /workspace-members/me`). */
  async getWorkspaceMember(input: NoInput = {}, options?: RequestOptions): Promise<Member> {
    return this.core.send(OPS.getWorkspaceMember, input, options);
  }

  /** A member of the workspace by member id. */
  async getWorkspaceMemberById(input: IdInput, options?: RequestOptions): Promise<Member> {
    return this.core.send(OPS.getWorkspaceMemberById, input, options);
  }

  /**
   * Invites a member by e-mail: the answer carries a one-time `invitation.code` to hand to that person
   * (see `acceptInvitation`); the member is `invited` and holds no role until the person accepts.
   */
  async addWorkspaceMember(
    input: AddWorkspaceMemberInput,
    options?: RequestOptions,
  ): Promise<AddWorkspaceMemberResponse> {
    return this.core.send(OPS.addWorkspaceMember, input, options);
  }

  /** Changes a member's role. */
  async updateWorkspaceMember(input: UpdateWorkspaceMemberInput, options?: RequestOptions): Promise<Member> {
    return this.core.send(OPS.updateWorkspaceMember, input, options);
  }

  /** Removes a member (or withdraws an invitation). */
  async removeWorkspaceMember(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.removeWorkspaceMember, input, options);
  }
}
