import type {
  AcceptInvitationInput,
  AcceptInvitationResponse,
  AccountResponse,
  CreatePersonalAccessTokenInput,
  CreatePersonalAccessTokenResponse,
  EmptyResponse,
  IdInput,
  ListPersonalAccessTokensResponse,
  NoInput,
  UpdateAccountInput,
} from './admin-types.js';
import { Api, type RequestOptions } from './core.js';
import { ACCOUNT_OPERATIONS as OPS } from './operations.js';

/** The token's own account (`/v1/admin/account`): invitations, profile, personal access tokens. */
export class AccountApi extends Api {
  /**
   * Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and
   * answers its first personal access token, e.g. for `client.with({ token: pat.value, workspaceId })`.
   * When an account already holds that e-mail, call it with that account's token (no `pat` then).
   */
  async acceptInvitation(
    input: AcceptInvitationInput,
    options?: RequestOptions,
  ): Promise<AcceptInvitationResponse> {
    return this.core.send(OPS.acceptInvitation, input, options);
  }

  /** The token's account. */
  async getAccount(input: NoInput = {}, options?: RequestOptions): Promise<AccountResponse> {
    return this.core.send(OPS.getAccount, input, options);
  }

  /** Changes the token's account. */
  async updateAccount(input: UpdateAccountInput, options?: RequestOptions): Promise<AccountResponse> {
    return this.core.send(OPS.updateAccount, input, options);
  }

  /** Lists the account's personal access tokens (never their values). */
  async listPersonalAccessTokens(
    input: NoInput = {},
    options?: RequestOptions,
  ): Promise<ListPersonalAccessTokensResponse> {
    return this.core.send(OPS.listPersonalAccessTokens, input, options);
  }

  /** Creates a personal access token (`pat_…`); `pat.value` is shown only in this answer. */
  async createPersonalAccessToken(
    input: CreatePersonalAccessTokenInput = {},
    options?: RequestOptions,
  ): Promise<CreatePersonalAccessTokenResponse> {
    return this.core.send(OPS.createPersonalAccessToken, input, options);
  }

  /** Revokes a personal access token. */
  async deletePersonalAccessToken(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deletePersonalAccessToken, input, options);
  }
}
