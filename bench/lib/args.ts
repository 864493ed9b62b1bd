// Command-line and environment options shared by the benchmarks: a flag wins over its environment variable.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The value of `--name value` or `--name=value` on the command line, else of the environment variable `env`;
 * `undefined` when neither is given (an empty variable counts as not given).
 */
export function option(name: string, env: string): string | undefined {
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === `--${name}`) return args[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  const value = process.env[env];
  return value === undefined || value === '' ? undefined : value;
}

/** True when `--name` is on the command line or the environment variable `env` is 1, true or yes. */
export function flag(name: string, env: string): boolean {
  return process.argv.slice(2).includes(`--${name}`) || /^(1|true|yes)$/i.test(process.env[env] ?? '');
}

/**
 * The integer option `name` / `env` (underscores allowed: `100_000`), `fallback` when it is not given.
 * @throws when the value is not an integer from `min` to `max`.
 */
export function intOption(name: string, env: string, fallback: number, min: number, max: number): number {
  const raw = option(name, env);
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * `text` as a positive integer, `undefined` when `text` is (an option that was not given).
 * @throws when `text` is not a positive integer; the message names the option `--name`.
 */
export function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${text}"`);
  return n;
}

/**
 * A fresh folder named `<prefix><random>` in the folder of `--dir` / `BENCH_DIR` (default the OS temp
 * folder), for a benchmark's files; the caller removes it.
 */
export function makeWorkFolder(prefix: string): Promise<string> {
  return mkdtemp(join(option('dir', 'BENCH_DIR') ?? tmpdir(), prefix));
}
