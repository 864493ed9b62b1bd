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
    return this.core.page(OPS.listWorkspaces, options, { query: input }, 'workspaces');
  }

  /** Creates a workspace owned by the token's account; answers the workspace (no wrapper). */
  async createWorkspace(input: CreateWorkspaceInput, options?: RequestOptions): Promise<Workspace> {
    return this.core.call(OPS.createWorkspace, options, { body: input });
  }

  /** Gets a workspace (no wrapper). */
  async getWorkspace({ id }: IdInput, options?: RequestOptions): Promise<Workspace> {
    return this.core.call(OPS.getWorkspace, options, { params: { id }, headers: { 'x-workspace-id': id } });
  }

  /** Changes a workspace's settings; answers the workspace (no wrapper). */
  async updateWorkspace({ id, ...body }: UpdateWorkspaceInput, options?: RequestOptions): Promise<Workspace> {
    const headers = { 'x-workspace-id': id };
    return this.core.call(OPS.updateWorkspace, options, { params: { id }, body, headers });
  }

  /** Deletes a workspace and everything in it (owner only). */
  async deleteWorkspace({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.call(OPS.deleteWorkspace, options, {
      params: { id },
      headers: { 'x-workspace-id': id },
    });
  }

  /** A workspace's usage figures for the current period. */
  async listWorkspaceUsages({ id }: IdInput, options?: RequestOptions): Promise<ListWorkspaceUsagesResponse> {
    const headers = { 'x-workspace-id': id };
    return this.core.call(OPS.listWorkspaceUsages, options, { params: { id }, headers });
  }

  /** A workspace's audit records, newest first (manager and above): await for a page, `for await` for all. */
  getAuditRecords(
    { id, ...query }: GetAuditRecordsInput,
    options?: RequestOptions,
  ): PagePromise<GetAuditRecordsResponse, AuditRecord> {
    const spec = { params: { id }, query, headers: { 'x-workspace-id': id } };
    return this.core.page(OPS.getAuditRecords, options, spec, 'records');
  }

  // ---- members ----

  /** Lists the workspace's members and pending invitations. */
  listWorkspaceMembers(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListWorkspaceMembersResponse, Member> {
    return this.core.page(OPS.listWorkspaceMembers, options, { query: input }, 'members');
  }

  /** The caller's own membership of the workspace (`GET /workspace-members/me`). */
  async getWorkspaceMember(_input: NoInput = {}, options?: RequestOptions): Promise<Member> {
    return this.core.call(OPS.getWorkspaceMember, options, {});
  }

  /** A member of the workspace by member id. */
  async getWorkspaceMemberById({ id }: IdInput, options?: RequestOptions): Promise<Member> {
    return this.core.call(OPS.getWorkspaceMemberById, options, { params: { id } });
  }

  /**
   * Invites a member by e-mail: the answer carries a one-time `invitation.code` to hand to that person
   * (see `acceptInvitation`); the member is `invited` and holds no role until the person accepts.
   */
  async addWorkspaceMember(
    input: AddWorkspaceMemberInput,
    options?: RequestOptions,
  ): Promise<AddWorkspaceMemberResponse> {
    return this.core.call(OPS.addWorkspaceMember, options, { body: input });
  }

  /** Changes a member's role. */
  async updateWorkspaceMember(
    { id, ...body }: UpdateWorkspaceMemberInput,
    options?: RequestOptions,
  ): Promise<Member> {
    return this.core.call(OPS.updateWorkspaceMember, options, { params: { id }, body });
  }

  /** Removes a member (or withdraws an invitation). */
  async removeWorkspaceMember({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.call(OPS.removeWorkspaceMember, options, { params: { id } });
  }
}
