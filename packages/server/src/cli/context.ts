import type { Config } from '../config/config.js';

/** Where a command writes: the CLI's streams and environment (the `CliIo` of cli.ts fits it). */
export interface CommandIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * The terminal to draw live progress on (redrawn in place); undefined when stdout is not a TTY, and then
   * commands print plain lines. Default: process.stdout when it is a TTY.
   */
  terminal?: NodeJS.WriteStream | undefined;
}

/** What command groups share with those of cli.ts (its `CommandContext` fits it), here and in @parley/cli. */
export interface CommandContext {
  io: CommandIo;
  /** The server's configuration, read from the environment when a command runs (local commands only). */
  config: () => Config;
  /** Prints one JSON document on stdout. */
  print: (value: unknown) => void;
}

/**
 * A failure that ends a command with a message and an exit code chosen by the command (`runCli` prints the
 * message after `error: ` and exits 1).
 */
export class CommandFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailure';
  }
}

/** The terminal to draw live progress on, or undefined for plain lines (not a TTY, `TERM=dumb`). */
export function terminalOf(io: CommandIo): NodeJS.WriteStream | undefined {
  if ('terminal' in io) return io.terminal;
  if (io.env.TERM === 'dumb' || io.env.CI) return undefined;
  return process.stdout.isTTY ? process.stdout : undefined;
}

/** Bytes for people: 1.2 MB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
