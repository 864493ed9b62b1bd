import {
  Client,
  ApiError as ClientApiError,
  ConnectionError,
  DEFAULT_API_URL,
  TimeoutError,
} from '@parley/client';
import { CommandFailure, type CommandIo } from '@parley/server/cli';
import { type Command, InvalidArgumentError, Option } from 'commander';

/** The connection options every remote command takes, each with its environment variable. */
export interface ConnectionFlags {
  url?: string;
  token?: string;
  bot?: string;
  workspace?: string;
  retries: number;
}

/** Which context headers a remote command needs besides the token. */
export type Needs = 'bot' | 'workspace';

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number ≥ 1');
  return n;
}

/** Parses a whole number ≥ 1 (for commander options). */
export const wholeNumber = positiveInteger;

/**
 * Adds `--url`, `--token`, `--bot`, `--workspace` and `--retries` to a command that talks to a running
 * Parley over HTTP; each falls back to its environment variable, as in `@parley/client`.
 */
export function remoteOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--url <url>', `Parley's base URL (env PARLEY_API_URL; default ${DEFAULT_API_URL})`),
    )
    .addOption(new Option('--token <token>', 'personal access token or bot access key (env PARLEY_TOKEN)'))
    .addOption(new Option('--bot <botId>', 'bot whose data the command works on (env PARLEY_BOT_ID)'))
    .addOption(
      new Option(
        '--workspace <workspaceId>',
        'workspace of the bot, for a personal access token (env PARLEY_WORKSPACE_ID)',
      ),
    )
    .addOption(
      new Option('--retries <n>', 'attempts per request on network errors, timeouts, 429 and 5xx')
        .argParser(positiveInteger)
        .default(4),
    );
}

function setting(flag: string | undefined, io: CommandIo, name: string): string | undefined {
  const value = flag !== undefined && flag !== '' ? flag : io.env[name]?.trim();
  return value ? value : undefined;
}

/** A usage error (exit code 2): what is missing and how to give it. */
function missing(command: Command, what: string, flag: string, variable: string): never {
  command.error(`error: no ${what}: pass ${flag} or set ${variable}`, {
    exitCode: 2,
    code: 'commander.missingSetting',
  });
}

/**
 * The client of a remote command, set up from its flags and the environment. A missing token (or bot, when
 * the command works on a bot's data) is a usage error naming the flag and the variable.
 */
export function clientOf(command: Command, flags: ConnectionFlags, io: CommandIo, needs: Needs[]): Client {
  const token = setting(flags.token, io, 'PARLEY_TOKEN');
  if (!token) missing(command, 'token', '--token', 'PARLEY_TOKEN');
  const botId = setting(flags.bot, io, 'PARLEY_BOT_ID');
  if (needs.includes('bot') && !botId) missing(command, 'bot', '--bot', 'PARLEY_BOT_ID');
  const workspaceId = setting(flags.workspace, io, 'PARLEY_WORKSPACE_ID');
  if (needs.includes('workspace') && !workspaceId)
    missing(command, 'workspace', '--workspace', 'PARLEY_WORKSPACE_ID');
  return new Client({
    apiUrl: setting(flags.url, io, 'PARLEY_API_URL') ?? DEFAULT_API_URL,
    token,
    botId,
    workspaceId,
    retry: { attempts: flags.retries },
  });
}

/** One line for an error of the client: the API's type and message, or what went wrong on the way. */
export function describeError(error: unknown): string {
  if (error instanceof ClientApiError) return `${error.type}: ${error.message}`;
  if (error instanceof ConnectionError) return `cannot reach Parley: ${error.message}`;
  if (error instanceof TimeoutError) return `timed out: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs a remote command's work, turning the client's errors into a `CommandFailure` with one clear line. */
export async function remote<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof CommandFailure || (typeof code === 'string' && code.startsWith('commander.')))
      throw error;
    throw new CommandFailure(describeError(error));
  }
}
