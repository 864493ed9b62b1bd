import { CHAT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { errors } from '../../../errors/errors.js';
import { openCorsAnswer } from '../../../http/cors.js';
import { header } from '../../../http/headers.js';
import { operations } from '../../../http/operation.js';
import type { SignalBus } from '../bus.js';
import { type StreamRegistry, serveStream } from '../stream.js';
import { type ChatRouteContext, defaults, IdParams } from './common.js';

const ListenQuery = Type.Object({ lastEventId: Type.Optional(Type.String({ maxLength: 30 })) });

/** The live stream of a conversation (Server-Sent Events), resumed with Last-Event-ID. */
export function listenRoute(
  app: FastifyInstance,
  { chat, authenticate }: ChatRouteContext,
  deps: { bus: SignalBus; pingIntervalMs: number; streams: StreamRegistry },
): void {
  operations(app, defaults)(
    CHAT_OPERATIONS.listen,
    {
      description:
        'Live stream of the conversation (Server-Sent Events). Frames: `id: <cursor>`, `event: message`, `data: {"type", "data"}`; a ping every 30 s. Reconnect with Last-Event-ID (or ?lastEventId=) to receive every signal after it, in order.',
      params: IdParams,
      query: ListenQuery,
    },
    async (req, reply) => {
      const c = req.chatCaller;
      const raw = header(req, 'last-event-id') ?? req.query.lastEventId;
      let after: number | undefined;
      if (raw !== undefined && raw.trim() !== '') {
        if (!/^\d{1,15}$/.test(raw.trim()))
          throw errors.invalidQuery(
            'Last-Event-ID must be the id of a frame this stream sent (a whole number)',
            [{ field: 'lastEventId', message: 'not a stream cursor' }],
          );
        after = Number(raw.trim());
      }
      const release = deps.streams.admit(c);
      let start: number;
      try {
        start = await chat.openStream(c, req.params.id, after);
      } catch (error) {
        release();
        throw error;
      }
      reply.hijack();
      await serveStream({
        res: reply.raw,
        headers: { ...openCorsAnswer('chat'), 'x-request-id': req.id },
        chat,
        bus: deps.bus,
        caller: c,
        conversationId: req.params.id,
        after: start,
        pingMs: deps.pingIntervalMs,
        registry: deps.streams,
        release,
        reauthenticate: () => authenticate(req),
        onError: (error) => req.log.warn({ err: error }, 'chat stream read failed'),
      });
    },
  );
}
