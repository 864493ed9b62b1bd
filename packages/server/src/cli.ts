import { ROLES, type Role } from '@parley/protocol';
import { Command, InvalidArgumentError } from 'commander';
import type { Actor, Principal } from './access/principal.js';
import { loadSigningSecret } from './access/signing-secret.js';
import { blobStoreFromConfig } from './blob/from-config.js';
import { backupCommands } from './cli/backup.js';
import type { CommandContext as GroupContext } from './cli/context.js';
import { CONFIG_VARIABLES, type Config, ConfigError, loadConfig } from './config/config.js';
import { openDatabase } from './db/database.js';
import { ApiError } from './errors/errors.js';
import { packageVersion, startServer } from './server.js';
import { buildServices, embedderPrecision, type Services } from './services.js';

/** Where the CLI writes and how it exits; injectable for tests. */
export interface CliIo {
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Called once the server listens, with a function that stops it (SIGTERM handling lives in main.ts). */
  onServing?: (stop: () => Promise<void>) => void;
  /** Standard input (`accounts set-password` reads the password there); default: the process's. */
  stdin?: AsyncIterable<string | Buffer>;
}

/** A secret from standard input: its first line, without the line break (nothing else is read into it). */
async function readSecret(io: CliIo): Promise<string> {
  let text = '';
  for await (const chunk of io.stdin ?? process.stdin) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.includes('\n') || text.length > 4096) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '')
    throw new ApiError('InvalidPayload', 'No password on standard input (e.g. printf %s "$PW" | parley …)');
  return line;
}

function role(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

async function withServices<T>(config: Config, fn: (services: Services) => Promise<T>): Promise<T> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const signingSecret = await loadSigningSecret(db.kysely, config.signingSecret);
    // No background work runs here and every failure ends the command with its message: no logger needed.
    const blobs = await blobStoreFromConfig(config);
    const precision = await embedderPrecision(db, config);
    return await fn(buildServices({ config, db, blobs, signingSecret, embedderPrecision: precision }));
  } finally {
    await db.close();
  }
}

/** The principal of the account with this e-mail, for CLI commands that act as that account. */
async function accountPrincipal(services: Services, email: string): Promise<Principal> {
  const account = await services.identity.accountByEmail(email);
  if (!account) throw new ApiError('ResourceNotFound', `No account with e-mail ${email}`);
  return { kind: 'account', accountId: account.id, email: account.email, tokenId: 'cli' };
}

/** The actor of an account inside a workspace, for CLI commands that act as that account. */
async function ownerActor(services: Services, email: string, workspaceId: string): Promise<Actor> {
  const actor = await services.identity.resolver.resolveActor(
    await accountPrincipal(services, email),
    workspaceId,
  );
  if (!actor) throw new ApiError('ResourceNotFound', `${email} is not a member of workspace ${workspaceId}`);
  return actor;
}

/** What the commands share: the CLI's I/O, its configuration (read when a command runs) and its JSON output. */
interface CommandContext {
  io: CliIo;
  config: () => Config;
  print: (value: unknown) => void;
}

/**
 * A command's action on the services: what `run` answers is printed (one JSON document), then the database
 * is closed. `run` gets the command's options and the configuration read for this command.
 */
function printing<Opts>(
  ctx: CommandContext,
  run: (services: Services, opts: Opts, config: Config) => Promise<unknown>,
): (opts: Opts) => Promise<void> {
  return async (opts) => {
    const config = ctx.config();
    await withServices(config, async (services) => ctx.print(await run(services, opts, config)));
  };
}

/**
 * A group of commands added to the program, e.g. `@parley/cli`'s remote commands (files, kb, search, qa, …),
 * which talk HTTP through `@parley/client`: the server itself does not depend on the client.
 */
export type CommandGroup = (program: Command, ctx: GroupContext) => void;

/** `serve`: starts the service, printing the bootstrap credentials on first start. */
function serveCommand(program: Command, ctx: CommandContext): void {
  program
    .command('serve')
    .description('start the service (bootstraps an owner, a workspace and a demo bot on first start)')
    .action(async () => {
      const server = await startServer(ctx.config());
      const { info, created, file } = server.bootstrap;
      if (created) {
        ctx.io.out(
          [
            '',
            'Parley is set up. Keep these; they are shown only this once (also in bootstrap.json, mode 0600):',
            `  owner e-mail          ${info.email}`,
            `  personal access token ${info.token}`,
            `  owner password        ${info.password ?? '(PARLEY_ADMIN_PASSWORD)'}`,
            `  workspace id          ${info.workspaceId}`,
            `  demo bot id           ${info.botId}`,
            `  demo bot access key   ${info.botAccessKey}`,
            `  written to            ${file}`,
            '',
            `Try: curl -H "Authorization: Bearer ${info.token}" -H "x-workspace-id: ${info.workspaceId}" ${info.apiUrl}/v1/admin/bots`,
            `Chat with the demo bot: ${info.apiUrl}/webchat/${info.botId}`,
            '',
          ].join('\n'),
        );
      }
      ctx.io.out(`Parley listening on ${server.url} (API docs at ${server.url}/docs)\n`);
      ctx.io.onServing?.(() => server.close());
    });
}

/** `migrate`: brings the schema up to date. */
function migrateCommand(program: Command, ctx: CommandContext): void {
  program
    .command('migrate')
    .description('bring the database schema up to date and exit')
    .action(async () => {
      await withServices(ctx.config(), async () => undefined);
      ctx.print({ migrated: true });
    });
}

/** `accounts create` and `accounts set-password`. */
function accountsCommands(program: Command, ctx: CommandContext): void {
  const accounts = program.command('accounts').description('manage accounts');
  accounts
    .command('create')
    .description('create an account and its first personal access token; optionally add it to a workspace')
    .requiredOption('--email <email>', 'e-mail of the account')
    .option('--name <displayName>', 'display name')
    .option('--workspace <workspaceId>', 'add the account to this workspace')
    .option('--role <role>', `role in --workspace: ${ROLES.join(', ')}`, role, 'developer')
    .option(
      '--as <email>',
      'existing member adding the account to --workspace (default: the bootstrap owner)',
    )
    .action(
      printing(
        ctx,
        async (
          services,
          opts: { email: string; name?: string; workspace?: string; role: Role; as?: string },
          cfg,
        ) => {
          const created = await services.identity.createAccount(opts.email, opts.name);
          let member: unknown;
          if (opts.workspace) {
            member = await services.identity.addMember(
              await ownerActor(services, opts.as ?? cfg.adminEmail, opts.workspace),
              { email: opts.email, role: opts.role },
              // The operator created this account in this very command: it joins at once.
              { direct: true },
            );
          }
          return { account: created.account, token: created.token.value, ...(member ? { member } : {}) };
        },
      ),
    );

  accounts
    .command('set-password')
    .description("set an account's password, read from standard input (ends the account's sessions)")
    .requiredOption('--email <email>', 'e-mail of the account')
    .action(async (opts: { email: string }) => {
      const password = await readSecret(ctx.io);
      await withServices(ctx.config(), async (services) => {
        ctx.print({ account: await services.identity.setPassword(opts.email, password) });
      });
    });
}

/** `tokens create`. */
function tokensCommands(program: Command, ctx: CommandContext): void {
  const tokens = program.command('tokens').description('manage personal access tokens');
  tokens
    .command('create')
    .description('create a personal access token for an account (prints its value once)')
    .requiredOption('--email <email>', 'e-mail of the account')
    .option('--note <note>', 'what the token is for', 'cli')
    .option('--expires-at <iso>', 'expiry (ISO 8601)')
    .action(
      printing(ctx, async (services, opts: { email: string; note: string; expiresAt?: string }) => {
        const pat = await services.identity.createPat(await accountPrincipal(services, opts.email), {
          note: opts.note,
          expiresAt: opts.expiresAt,
        });
        return { token: pat };
      }),
    );
}

/** `workspaces create`. */
function workspacesCommands(program: Command, ctx: CommandContext): void {
  const workspaces = program.command('workspaces').description('manage workspaces');
  workspaces
    .command('create')
    .description('create a workspace owned by an account')
    .requiredOption('--name <name>', 'workspace name')
    .option('--owner <email>', 'owner e-mail (default: the bootstrap owner)')
    .action(
      printing(ctx, async (services, opts: { name: string; owner?: string }, cfg) => {
        const owner = await accountPrincipal(services, opts.owner ?? cfg.adminEmail);
        return { workspace: await services.identity.createWorkspace(owner, { name: opts.name }) };
      }),
    );
}

/** `bots create`. */
function botsCommands(program: Command, ctx: CommandContext): void {
  const bots = program.command('bots').description('manage bots');
  bots
    .command('create')
    .description('create a bot in a workspace and a bot access key for it')
    .requiredOption('--workspace <workspaceId>', 'workspace id')
    .option('--name <name>', 'bot name', 'New bot')
    .option('--as <email>', 'member creating the bot (default: the bootstrap owner)')
    .option('--no-key', 'do not create a bot access key')
    .action(
      printing(
        ctx,
        async (services, opts: { workspace: string; name: string; as?: string; key: boolean }, cfg) => {
          const actor = await ownerActor(services, opts.as ?? cfg.adminEmail, opts.workspace);
          const bot = await services.bots.create(actor, { name: opts.name });
          const key = opts.key ? await services.bots.createKey(actor, bot.id, { note: 'cli' }) : undefined;
          return { bot, ...(key ? { botAccessKey: key.value } : {}) };
        },
      ),
    );
}

/**
 * The `parley` command line: the server's local commands (`serve`, `migrate`, commands that create accounts,
 * tokens and bots for scripting, `backup` and `restore` of the data folder), then `groups`.
 * Every command but `serve` prints one JSON document on stdout.
 * @example await buildCli(io).parseAsync(['node', 'parley', 'accounts', 'create', '--email', 'a@b.c'])
 */
export function buildCli(io: CliIo, groups: readonly CommandGroup[] = []): Command {
  const program = new Command('parley')
    .description('Parley: a self-hostable bot platform.')
    .version(packageVersion())
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .addHelpText(
      'after',
      `\nConfiguration (environment variables):\n${Object.entries(CONFIG_VARIABLES)
        .map(([k, v]) => `  ${k.padEnd(32)} ${v}`)
        .join('\n')}\n`,
    );
  const ctx: CommandContext = {
    io,
    config: () => loadConfig(io.env),
    print: (value) => io.out(`${JSON.stringify(value, null, 2)}\n`),
  };
  for (const add of [
    serveCommand,
    migrateCommand,
    accountsCommands,
    tokensCommands,
    workspacesCommands,
    botsCommands,
    backupCommands,
    ...groups,
  ])
    add(program, ctx);
  return program;
}

/** Runs the CLI and turns failures into a message and an exit code (2 for bad configuration or usage). */
export async function runCli(
  argv: string[],
  io: CliIo,
  groups: readonly CommandGroup[] = [],
): Promise<number> {
  try {
    await buildCli(io, groups).parseAsync(argv);
    return 0;
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (typeof e.code === 'string' && e.code.startsWith('commander.')) {
      return e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
        ? 0
        : 2;
    }
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      io.err(`error: ${error.type}: ${error.message}\n`);
      return 1;
    }
    io.err(`error: ${e.message ?? String(error)}\n`);
    return 1;
  }
}
