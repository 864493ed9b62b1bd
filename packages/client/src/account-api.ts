import type {
  AcceptInvitationInput,
  AcceptInvitationResponse,
  AccountResponse,
  ChangePasswordInput,
  CreatePersonalAccessTokenInput,
  CreatePersonalAccessTokenResponse,
  EmptyResponse,
  IdInput,
  ListPersonalAccessTokensResponse,
  ListSessionsResponse,
  NoInput,
  RevokedSessionsResponse,
  SignInInput,
  SignInResponse,
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

  /**
   * Signs in with an e-mail and a password. In a browser on the service's origin the answer sets the session
   * cookie, which then authenticates the other calls of a client made without a token.
   */
  async signIn(input: SignInInput, options?: RequestOptions): Promise<SignInResponse> {
    return this.core.send(OPS.signIn, input, options);
  }

  /** Lists the account's live sessions (`current`: the one of this request). */
  async listSessions(input: NoInput = {}, options?: RequestOptions): Promise<ListSessionsResponse> {
    return this.core.send(OPS.listSessions, input, options);
  }

  /** Signs out: ends the session of this request's cookie. */
  async signOut(input: NoInput = {}, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.signOut, input, options);
  }

  /** Ends one of the account's sessions. */
  async revokeSession(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.revokeSession, input, options);
  }

  /** Signs out everywhere: ends every session of the account. */
  async revokeAllSessions(input: NoInput = {}, options?: RequestOptions): Promise<RevokedSessionsResponse> {
    return this.core.send(OPS.revokeAllSessions, input, options);
  }

  /** Changes the account's password (`current` once it has one); the account's other sessions end. */
  async changePassword(
    input: ChangePasswordInput,
    options?: RequestOptions,
  ): Promise<RevokedSessionsResponse> {
    return this.core.send(OPS.changePassword, input, options);
  }
}
