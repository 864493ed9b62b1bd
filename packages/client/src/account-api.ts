import { ACCOUNT_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/** The token's own account (`/v1/admin/account`): invitations, profile, personal access tokens. */
export type AccountApi = ApiOf<typeof ACCOUNT_OPERATIONS>;

/** Sends each method of `AccountApi` as its entry of `ACCOUNT_OPERATIONS`. */
export const AccountApi = apiClass(ACCOUNT_OPERATIONS);
