import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

/** The levels a request's logger writes at. */
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** A parent that can say whether a level is written (pino's loggers can). */
type LevelAware = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

const levelAware = (logger: FastifyBaseLogger): logger is LevelAware =>
  typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';

/**
 * Fastify's `childLoggerFactory`: each request's logger (`req.log`, carrying its request id) is a pino child
 * made only when the request first writes a line at a level that is written, or asks for a child of its own.
 * Making the child on every request, as Fastify does by default, was ~3% of a chat message's POST, and at
 * the default levels most requests never write a line. A route with a level or serializers of its own, or a
 * parent that cannot tell its levels, gets its child at once.
 */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (!levelAware(parent) || options.level !== undefined || options.serializers !== undefined)
    return parent.child(bindings, options);
  return new LazyChildLogger(parent, bindings, options);
}

class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  /** The pino child, made on first need. */
  private real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.made && !this.parent.isLevelEnabled(level)) return;
    const logger = this.real();
    (logger[level] as (...line: unknown[]) => void).apply(logger, args);
  }
}
