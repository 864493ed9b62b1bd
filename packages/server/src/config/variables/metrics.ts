import Type from 'typebox';

/** Prometheus metrics at `/metrics`: off unless asked for, behind a bearer token when one is set. */
export const METRICS_VARIABLES = {
  PARLEY_METRICS: Type.Boolean({
    default: false,
    description:
      '`true` serves Prometheus metrics at `/metrics` (requests, job queue, indexing, embedding, live streams, database pool, process); see [Metrics](operations.md#metrics)',
  }),
  PARLEY_METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      maxLength: 200,
      pattern: '^\\S+$',
      description:
        'the token a scraper must send to `/metrics` (`Authorization: Bearer <token>`; anything else is 401); unset = no token asked',
      'x-accepts': 'no spaces',
      'x-invalid': 'must be {minLength} to {maxLength} characters without spaces',
    }),
  ),
};
