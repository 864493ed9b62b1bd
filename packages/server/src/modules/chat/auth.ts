import { errors } from '../../errors/errors.js';
import { parseBearer } from '../../http/headers.js';
import { type ChatContext, checkAdminKey, ensureBotUser, loadBot } from './context.js';
import type { ChatBot, ChatCaller, ChatService } from './contract.js';
import { USER_KEY_HELP, verifyUserKey } from './keys.js';
import { chatRepo } from './repo.js';
import { secretsOf } from './secrets.js';

/**
 * The bot of a Chat API request as the bot itself: `authorization` must carry this bot's access key. The key
 * is looked up while the path's bot is read (two queries at once on PostgreSQL's pool, one round trip less),
 * and its own key takes the bot from that read instead of reading it again. The answers keep their order: the
 * bot's (404, 403 disabled, 403 adminKey) come before the key's (401, 403).
 */
async function botCaller(
  ctx: Pick<ChatContext, 'db' | 'now' | 'auth' | 'bots'>,
  botId: string,
  authorization: string,
  adminKey: string | undefined,
): Promise<ChatCaller> {
  const reading = loadBot(ctx.bots, botId);
  const readBot = reading.then((b) => ({ id: b.id, workspaceId: b.workspaceId }));
  const token = parseBearer(authorization);
  const resolving = token ? ctx.auth.resolveToken(token, readBot) : undefined;
  // Their failures are told below, after the bot's own answer (the resolver may never await readBot): none
  // is left unhandled when the bot's answer is an error.
  readBot.catch(() => undefined);
  resolving?.catch(() => undefined);
  const bot = await reading;
  const admin = checkAdminKey(bot, adminKey);
  if (!token || !resolving)
    throw errors.unauthorized(
      'Malformed Authorization header: send "Authorization: Bearer <bot access key>", or authenticate as a chat user with x-user-key instead',
    );
  const principal = await resolving;
  if (!principal)
    throw errors.unauthorized(
      'Invalid token: it is unknown, revoked or expired. The Chat API takes this bot\'s access key as "Authorization: Bearer <key>", or a chat user\'s x-user-key',
    );
  if (principal.kind !== 'bot')
    throw errors.forbidden(
      "The Chat API accepts only a bot access key as a bearer token (or a chat user's x-user-key); personal access tokens and integration keys cannot chat",
    );
  if (principal.botId !== bot.id)
    throw errors.forbidden(`This bot access key belongs to another bot than "${bot.id}"`);
  const userId = await ensureBotUser(ctx.db, bot, ctx.now());
  return { bot, userId, isBot: true, admin };
}

/** A chat user of the bot: `userKey` must be a key signed with the bot's user key secret for a user of it. */
async function userCaller(
  ctx: Pick<ChatContext, 'db' | 'now'>,
  bot: ChatBot,
  userKey: string | undefined,
  admin: boolean,
): Promise<ChatCaller> {
  const key = userKey?.trim();
  if (!key) throw errors.unauthorized(`Missing x-user-key header. ${USER_KEY_HELP}.`);
  const { user_key_secret } = await secretsOf(ctx.db, ctx.now, bot.id);
  const userId = await verifyUserKey(user_key_secret, key);
  const user = await chatRepo(ctx.db).user(bot.id, userId);
  if (!user || user.is_bot === 1) {
    throw errors.unauthorized(
      `The user "${userId}" of this x-user-key does not exist in bot "${bot.id}" (deleted, or never created): create one with POST /users, or POST /users/get-or-create for a key your backend signed`,
    );
  }
  return { bot, userId, isBot: false, admin };
}

/** Who calls the Chat API: the bot of a root, and the caller a request's credentials name. */
export function chatAuth(
  ctx: Pick<ChatContext, 'db' | 'now' | 'bots' | 'auth'>,
): Pick<ChatService, 'bot' | 'authenticate'> {
  return {
    bot: (botId) => loadBot(ctx.bots, botId),

    /**
     * Authenticates a Chat API request: `Authorization: Bearer <this bot's access key>` acts as the bot,
     * else `x-user-key` names a chat user of the bot. `x-admin-key`, when sent, must equal the bot's
     * non-empty webchat adminKey (else 403). Missing or invalid credentials answer 401 saying how to fix them.
     */
    async authenticate(botId, credentials) {
      const authorization = credentials.authorization?.trim();
      if (authorization) return botCaller(ctx, botId, authorization, credentials.adminKey);
      const bot = await loadBot(ctx.bots, botId);
      const admin = checkAdminKey(bot, credentials.adminKey);
      return userCaller(ctx, bot, credentials.userKey, admin);
    },
  };
}
