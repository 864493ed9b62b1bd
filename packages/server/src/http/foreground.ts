import type { FastifyInstance } from 'fastify';
import type { ForegroundGate } from '../jobs/foreground.js';

/**
 * The operations a person waits on, answered before the process's background work (jobs/foreground.ts): a
 * search, a chat message (whose answer is searched), an answer preview.
 */
export const FOREGROUND_OPERATIONS: readonly string[] = [
  'files.searchFiles',
  'chat.createMessage',
  'admin.previewBotAnswer',
];

/**
 * Marks each request of `operations` in flight on `gate`, from the moment its route is known (before its
 * body is read) until its response is finished or its connection closed, whichever comes first.
 */
export function trackForeground(
  app: FastifyInstance,
  options: { gate: ForegroundGate; operations: readonly string[] },
): void {
  const foreground = new Set(options.operations);
  app.addHook('onRequest', (req, reply, done) => {
    const operationId = (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    if (operationId !== undefined && foreground.has(operationId)) {
      // 'close' comes after the response is finished, or when the client went away before it.
      reply.raw.once('close', options.gate.enter());
    }
    done();
  });
}
