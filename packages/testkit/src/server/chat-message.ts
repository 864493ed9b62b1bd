import type { ChatMessage, MessagePayload } from '@parley/protocol';

let seq = 0;

/**
 * A visitor's message as the chat reply job hands it to a knowledge responder: a fresh id, sent now, in a
 * conversation of its own unless `conversationId` is given.
 */
export function visitorMessage(payload: MessagePayload, conversationId?: string): ChatMessage {
  seq += 1;
  return {
    id: `msg_${seq}`,
    createdAt: new Date().toISOString(),
    conversationId: conversationId ?? `conv_${seq}`,
    userId: 'visitor_1',
    isBot: false,
    payload,
  };
}
