import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Logger } from '../logger.js';

/**
 * The payload of each job kind, by kind name. Empty here: each module that owns a kind adds it by declaration
 * merging (`declare module '…/jobs/registry.js' { interface JobPayloads { chat_reply: ChatReplyJob } }`), so
 * `enqueue` is typed by kind while jobs/ imports no module.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the modules that own the kinds
export interface JobPayloads {}

/** A job kind some module declared. */
export type JobKind = keyof JobPayloads & string;

/** A failure that retrying will not cure: the job ends `failed` at once. */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    readonly reason: string = 'permanent',
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** What an attempt is given besides its payload. */
export interface JobContext {
  /** Aborts at the time bound or on shutdown. */
  signal: AbortSignal;
  /** 1 for the first attempt. */
  attempt: number;
  jobId: string;
  /** The queue's logger with `{ jobId, kind }`. */
  log: Logger;
}

/** Why a job ended `failed`: `reason` is a short code (`error`, `timeout`, `crashed`, a PermanentJobError's). */
export interface JobFailure {
  message: string;
  reason: string;
}

/** Capped exponential backoff between attempts (with jitter: each delay is 50–100 % of the computed one). */
export interface JobBackoff {
  baseMs: number;
  maxMs: number;
}

/** What a kind of job does, and its bounds. */
export interface JobHandler<P = unknown> {
  /** Runs the job; throw to fail (PermanentJobError: no retry). `signal` aborts at the time bound or on shutdown. */
  run(payload: P, context: JobContext): Promise<void>;
  /** Called once when the job ends `failed` (after its last attempt), to record the outcome elsewhere. */
  onFailed?(payload: P, error: JobFailure): Promise<void>;
  /** Longest one attempt may run. */
  timeoutMs: number;
  /** Attempts before giving up (transient failures are retried with backoff). */
  maxAttempts: number;
  /** Whether an attempt that runs past `timeoutMs` is tried again (default true). */
  retryTimeouts?: boolean;
}

/** A kind of job in one place: its name, the schema its payload must match, its handler and its bounds. */
export interface JobDefinition<P = unknown> extends JobHandler<P> {
  kind: string;
  /** Schema of the payload: a claimed job whose payload does not match ends `failed` (`invalid_payload`), unrun. */
  payload: TSchema;
  backoff: JobBackoff;
}

/** The definition of a declared kind: its handler is typed by the kind's payload. */
export type KindDefinition<K extends JobKind> = JobDefinition<JobPayloads[K]> & { kind: K };

/**
 * Declares a kind of job. The payload type comes from {@link JobPayloads}; `payload` is the schema the
 * worker checks a claimed job against, so it must accept every value of that type.
 * @example defineJob({ kind: 'chat_reply', payload: ChatReplyPayload, run, timeoutMs, maxAttempts: 3, backoff })
 */
export function defineJob<K extends JobKind>(definition: KindDefinition<K>): KindDefinition<K> {
  return definition;
}

/** Definitions by kind, as a worker is given them (the key is the kind it claims). */
export type JobSet = Readonly<Record<string, JobDefinition>>;

/** The set of these definitions, keyed by their kinds. */
export function jobSet(...definitions: JobDefinition[]): JobSet {
  return Object.fromEntries(definitions.map((d) => [d.kind, d]));
}

/** The stored text of a job decoded and checked against its kind's schema, or why it cannot be run. */
export function decodePayload(
  definition: Pick<JobDefinition, 'payload'>,
  text: string,
): { ok: true; payload: unknown } | { ok: false; problem: string } {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `the payload is not JSON (${(error as Error).message})` };
  }
  if (Value.Check(definition.payload, payload)) return { ok: true, payload };
  const [first] = Value.Errors(definition.payload, payload);
  const where = first?.instancePath ? ` at ${first.instancePath}` : '';
  return {
    ok: false,
    problem: `the payload does not match the job's schema${where}: ${first?.message ?? 'invalid'}`,
  };
}
