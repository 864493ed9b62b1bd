import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../errors/errors.js';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { IdParam } from '../../../http/route-helpers.js';
import type { SignalBus } from '../bus.js';
import type { ChatService } from '../contract.js';
import { type DeskStreams, serveDeskStream } from '../desk-stream.js';

/**
 * The inbox desk's live stream of a bot (Admin API, `conversation.read`): what changed in its conversations,
 * as Server-Sent Events, so the Console's inbox follows them without polling.
 */
export function deskLiveRoute(
  app: FastifyInstance,
  deps: { chat: ChatService; bus: SignalBus; pingIntervalMs: number; streams: DeskStreams },
): void {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.listenBotConversations,
    {
      description:
        'Live stream of the inbox desk (Server-Sent Events; every role that reads conversations): first `{"type":"counts","data":{waiting, mine, all, resolved}}`, then `{"type":"conversation_changed","data":{conversationId, signals?, handoff?: {state}}}` whenever a message is written or a conversation changes owner, `{"type":"resync"}` when changes may have been missed (read the lists again), and a ping every 30 s. Frames name conversations, not their contents. The stream ends after 5 minutes; reconnect (an EventSource does) and read the lists again.',
      params: IdParam,
    },
    async (req, reply) => {
      // The caller's counts: 403 without conversation.read, 404 for another workspace's bot.
      const counts = await deps.chat.inboxCounts(req.actor, req.params.id);
      const release = deps.streams.admit(req.params.id);
      if (!release)
        throw new ApiError(
          'RateLimited',
          `This bot already has ${deps.streams.limits.perBot} live inbox streams open in this process, the most allowed: try again later`,
        );
      reply.hijack();
      await serveDeskStream({
        res: reply.raw,
        headers: { 'x-request-id': req.id },
        bus: deps.bus,
        botId: req.params.id,
        counts,
        pingMs: deps.pingIntervalMs,
        streams: deps.streams,
        release,
      });
    },
  );
}
