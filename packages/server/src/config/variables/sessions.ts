import Type from 'typebox';

/** Human sign-in: the sessions a password opens (the Console's), and the throttling of failed sign-ins. */
export const SESSION_VARIABLES = {
  PARLEY_SESSION_IDLE_HOURS: Type.Integer({
    minimum: 1,
    maximum: 24 * 365,
    default: 12,
    description: 'a signed-in session unused this many hours ends (sign in again)',
  }),
  PARLEY_SESSION_MAX_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 30,
    description: 'a signed-in session ends this many days after the sign-in, however much it is used',
  }),
  PARLEY_SIGN_IN_MAX_FAILURES_PER_ACCOUNT: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 5,
    description:
      'failed sign-ins to one e-mail from one client address within the window before that address is refused for that e-mail (429 with `Retry-After`); other addresses are not',
  }),
  PARLEY_SIGN_IN_ACCOUNT_CEILING: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 100,
    description:
      'failed sign-ins to one e-mail from all addresses together within the window before every address is refused for it (429): the ceiling on a distributed guess',
  }),
  PARLEY_SIGN_IN_MAX_FAILURES_PER_ADDRESS: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 20,
    description: 'failed sign-ins from one client address within the window before it is refused (429)',
  }),
  PARLEY_SIGN_IN_FAILURE_WINDOW_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 24 * 60,
    default: 15,
    description: 'minutes a failed sign-in counts against the three limits above',
  }),
};
