/**
 * What services and jobs log through: the app's pino logger (Fastify's `app.log`, or a child of it carrying
 * the request or job id). A failure that is handled and not rethrown is logged here with the id of the
 * request or job it happened in; it is never swallowed silently.
 */
export interface Logger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  /** A logger whose lines all carry `bindings` (e.g. `{ jobId }`). */
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops every line: for tools and tests that build services without an app. */
export const silentLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  child() {
    return silentLogger;
  },
};
