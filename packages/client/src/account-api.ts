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
import { apiClass } from './api-class.js';
import type { RequestOptions } from './core.js';
import { ACCOUNT_OPERATIONS } from './operations.js';

/** The token's own account (`/v1/admin/account`): invitations, profile, personal access tokens. */
export interface AccountApi {
  /**
   * Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and
   * answers its first personal access token, e.g. for `client.with({ token: pat.value, workspaceId })`.
   * When an account already holds that e-mail, call it with that account's token (no `pat` then).
   */
  acceptInvitation(input: AcceptInvitationInput, options?: RequestOptions): Promise<AcceptInvitationResponse>;
  /** The token's account. */
  getAccount(input?: NoInput, options?: RequestOptions): Promise<AccountResponse>;
  /** Changes the token's account. */
  updateAccount(input: UpdateAccountInput, options?: RequestOptions): Promise<AccountResponse>;
  /** Lists the account's personal access tokens (never their values). */
  listPersonalAccessTokens(
    input?: NoInput,
    options?: RequestOptions,
  ): Promise<ListPersonalAccessTokensResponse>;
  /** Creates a personal access token (`pat_…`); `pat.value` is shown only in this answer. */
  createPersonalAccessToken(
    input?: CreatePersonalAccessTokenInput,
    options?: RequestOptions,
  ): Promise<CreatePersonalAccessTokenResponse>;
  /** Revokes a personal access token. */
  deletePersonalAccessToken(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
  /**
   * Signs in with an e-mail and a password. In a browser on the service's origin the answer sets the session
   * cookie, which then authenticates the other calls of a client made without a token.
   */
  signIn(input: SignInInput, options?: RequestOptions): Promise<SignInResponse>;
  /** Lists the account's live sessions (`current`: the one of this request). */
  listSessions(input?: NoInput, options?: RequestOptions): Promise<ListSessionsResponse>;
  /** Signs out: ends the session of this request's cookie. */
  signOut(input?: NoInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** Ends one of the account's sessions. */
  revokeSession(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** Signs out everywhere: ends every session of the account. */
  revokeAllSessions(input?: NoInput, options?: RequestOptions): Promise<RevokedSessionsResponse>;
  /** Changes the account's password (`current` once it has one); the account's other sessions end. */
  changePassword(input: ChangePasswordInput, options?: RequestOptions): Promise<RevokedSessionsResponse>;
}

/** Sends each method of `AccountApi` as its entry of `ACCOUNT_OPERATIONS`. */
export const AccountApi = apiClass(ACCOUNT_OPERATIONS).implementing<AccountApi>({});
