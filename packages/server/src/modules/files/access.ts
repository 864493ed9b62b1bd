import type { Kysely } from 'kysely';
import { canFile, type FileAction, type FileActor, fileRule } from '../../access/file-policy.js';
import type { Principal } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { type ApiError, errors } from '../../errors/errors.js';
import type { FilesContext, FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { facts } from './records.js';
import { type FileRow, type FileVisibility, filesRepo } from './repo.js';

/** 403 naming who may not do `action` (on `row`, or on the bot's files). */
export function denied(ctx: FilesContext, action: FileAction, row?: FileRow): ApiError {
  const who = ctx.actor.kind === 'member' ? `role "${ctx.actor.role}"` : `this ${ctx.actor.kind}`;
  return errors.forbidden(
    `Permission denied: ${who} may not ${action} ${row ? `file "${row.key}"` : 'files of this bot'}`,
  );
}

/** 403 unless the caller may do `action` (on `row`, when given). */
export function authorizeFile(ctx: FilesContext, action: FileAction, row?: FileRow): void {
  if (!canFile(ctx.actor, action, row ? facts(row) : undefined)) throw denied(ctx, action, row);
}

/** 403 unless the caller may do `action` on some file of the bot (a list, a tag listing). */
export function authorizeAny(ctx: FilesContext, action: FileAction): void {
  if (fileRule(ctx.actor, action) === false) throw denied(ctx, action);
}

/**
 * Loads a file of the context's bot by id or key for `action`: 403 when the caller has no right to
 * `action` on any file, 404 when the file is absent or the caller may not see it (an integration and a
 * private file of someone else: no existence oracle), 403 when it sees the file but may not `action` it.
 */
export async function loadFile(
  db: Kysely<Database>,
  ctx: FilesContext,
  idOrKey: string,
  action: FileAction,
): Promise<FileRow> {
  authorizeAny(ctx, action);
  const repo = filesRepo(db);
  const row = (await repo.byId(ctx.botId, idOrKey)) ?? (await repo.byKey(ctx.botId, idOrKey));
  if (!row || !canFile(ctx.actor, 'read', facts(row))) throw errors.notFound('File', idOrKey);
  authorizeFile(ctx, action, row);
  return row;
}

/** Which of the bot's files the caller sees in lists and searches. */
export function visibilityOf(ctx: FilesContext): FileVisibility {
  return ctx.actor.kind === 'integration'
    ? { kind: 'integration', integrationId: ctx.actor.integrationId }
    : { kind: 'all' };
}

/** The owner recorded on a file the actor creates (the public creates none: 401). */
export function ownerOf(actor: FileActor): { type: string; id: string | null } {
  switch (actor.kind) {
    case 'bot':
      return { type: 'bot', id: actor.botId };
    case 'integration':
      return { type: 'integration', id: actor.integrationId };
    case 'member':
      return { type: 'user', id: actor.accountId };
    case 'public':
      throw errors.unauthorized('A token is needed');
  }
}

/** A bot key or integration key names its own bot: 403 when `x-bot-id` names another. */
function keyContext(
  principal: Extract<Principal, { kind: 'bot' | 'integration' }>,
  botId: string,
): FilesContext {
  const ours = principal.botId === botId;
  if (principal.kind === 'bot') {
    if (!ours) throw errors.forbidden('This bot access key belongs to another bot than x-bot-id');
    return { actor: { kind: 'bot', botId }, botId, workspaceId: principal.workspaceId };
  }
  if (!ours) throw errors.forbidden('This integration key is for another bot than x-bot-id');
  return {
    actor: { kind: 'integration', integrationId: principal.integrationId, botId },
    botId,
    workspaceId: principal.workspaceId,
  };
}

/** Resolves the caller of a Files API request: its token's principal acting on the bot named by `x-bot-id`. */
export async function resolveContext(
  deps: Pick<FilesEnv, 'bots' | 'auth'>,
  principal: Principal,
  botIdHeader: string | undefined,
): Promise<FilesContext> {
  if (!botIdHeader)
    throw errors.invalidPayload(
      'Missing x-bot-id header: send "x-bot-id: <bot id>" naming the bot whose files you work with',
      [{ field: 'x-bot-id', message: 'required' }],
    );
  const bot = await deps.bots.findAnyWorkspace(botIdHeader);
  if (principal.kind === 'bot' || principal.kind === 'integration') return keyContext(principal, botIdHeader);
  const actor = bot ? await deps.auth.resolveActor(principal, bot.workspaceId) : undefined;
  if (!bot || !actor || actor.kind !== 'member') throw errors.notFound('Bot', botIdHeader);
  return {
    actor: { kind: 'member', role: actor.role, accountId: actor.accountId },
    botId: bot.id,
    workspaceId: bot.workspaceId,
  };
}

/** Who calls, what it sees, and the files it may read or change. */
export function filesAccess(
  env: FilesEnv,
): Pick<FilesService, 'context' | 'visibility' | 'readable' | 'writable'> {
  return {
    context: (principal, botIdHeader) => resolveContext(env, principal, botIdHeader),
    visibility: visibilityOf,
    readable: (ctx, idOrKey) => loadFile(env.db, ctx, idOrKey, 'read'),
    writable: (ctx, idOrKey) => loadFile(env.db, ctx, idOrKey, 'update'),
  };
}
