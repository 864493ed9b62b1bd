import { ACCOUNT_OPERATIONS } from '@parley/protocol/operations';
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
import { apiClass, type Sends } from './api-class.js';

/** The token's own account (`/v1/admin/account`): invitations, profile, personal access tokens. */
export type AccountApi = {
  /**
   * Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and
   * answers its first personal access token, e.g. for `client.with({ token: pat.value, workspaceId })`.
   * When an account already holds that e-mail, call it with that account's token (no `pat` then).
   */
  acceptInvitation: Sends<AcceptInvitationInput, AcceptInvitationResponse>;
  /** The token's account. */
  getAccount: Sends<NoInput | undefined, AccountResponse>;
  /** Changes the token's account. */
  updateAccount: Sends<UpdateAccountInput, AccountResponse>;
  /** Lists the account's personal access tokens (never their values). */
  listPersonalAccessTokens: Sends<NoInput | undefined, ListPersonalAccessTokensResponse>;
  /** Creates a personal access token (`pat_…`); `pat.value` is shown only in this answer. */
  createPersonalAccessToken: Sends<
    CreatePersonalAccessTokenInput | undefined,
    CreatePersonalAccessTokenResponse
  >;
  /** Revokes a personal access token. */
  deletePersonalAccessToken: Sends<IdInput, EmptyResponse>;
  /**
   * Signs in with an e-mail and a password. In a browser on the service's origin the answer sets the session
   * cookie, which then authenticates the other calls of a client made without a token.
   */
  signIn: Sends<SignInInput, SignInResponse>;
  /** Lists the account's live sessions (`current`: the one of this request). */
  listSessions: Sends<NoInput | undefined, ListSessionsResponse>;
  /** Signs out: ends the session of this request's cookie. */
  signOut: Sends<NoInput | undefined, EmptyResponse>;
  /** Ends one of the account's sessions. */
  revokeSession: Sends<IdInput, EmptyResponse>;
  /** Signs out everywhere: ends every session of the account. */
  revokeAllSessions: Sends<NoInput | undefined, RevokedSessionsResponse>;
  /** Changes the account's password (`current` once it has one); the account's other sessions end. */
  changePassword: Sends<ChangePasswordInput, RevokedSessionsResponse>;
};

/** Sends each method of `AccountApi` as its entry of `ACCOUNT_OPERATIONS`. */
export const AccountApi = apiClass(ACCOUNT_OPERATIONS).implementing<AccountApi>({});
