import type { CliIo, CommandGroup } from '@parley/server/cli';
import { runCli } from '@parley/server/cli';
import { botTransferCommands } from './bots.js';
import { conversationsCommands } from './conversations.js';
import { filesCommands } from './files.js';
import { kbCommands } from './kb.js';
import { siteCommands } from './kb-sites.js';
import { qaCommands } from './qa.js';
import { searchCommand } from './search.js';

/**
 * The remote command groups, which talk to a running Parley over HTTP through `@parley/client`, in the order
 * `parley --help` lists them after the server's own; `bots export|import` join the server's `bots` group.
 */
export const REMOTE_COMMANDS: readonly CommandGroup[] = [
  filesCommands,
  kbCommands,
  siteCommands,
  qaCommands,
  conversationsCommands,
  searchCommand,
  botTransferCommands,
];

/** Runs `parley <argv>`, every command of it, and answers its exit code. */
export function runParley(argv: string[], io: CliIo): Promise<number> {
  return runCli(argv, io, REMOTE_COMMANDS);
}
