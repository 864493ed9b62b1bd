/**
 * What `@parley/cli` builds the `parley` command on: this package's `@parley/server/cli` export. The process
 * entry and `runCli`, which run the server's own commands (serve, migrate, accounts, tokens, workspaces,
 * `bots create`, backup, restore) with the command groups given (the remote ones, over `@parley/client`), and
 * what command groups share. Light to import: the server's modules load when the CLI runs.
 */
export type { CliIo, CommandGroup } from '../cli.js';
export { type CommandContext, CommandFailure, type CommandIo, formatBytes, terminalOf } from './context.js';
export { runCli, runMain } from './run.js';
