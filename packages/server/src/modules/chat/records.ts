import {
  type ChatConversation,
  type ChatEvent,
  type ChatMessage,
  type ChatSignal,
  type ChatUser,
  type HandoffState,
  MAX_CHAT_PAYLOAD_BYTES,
  type MessageFeedback,
  type MessagePayload,
} from '@parley/protocol';
import { ApiError } from '../../errors/errors.js';
import { type Cursor, decodeCursor, type Page, toPage } from '../../http/pagination.js';
import type { ChatPageQuery, PendingSignal } from './contract.js';
import type { ChatUserRow, EventRow, MessageRow } from './repo.js';

const parse = <T>(text: string | null): T | undefined =>
  text === null ? undefined : (JSON.parse(text) as T);

/** A chat user row on the wire. */
export function toUser(row: ChatUserRow): ChatUser {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.picture_url !== null ? { pictureUrl: row.picture_url } : {}),
    ...(row.data !== null ? { data: JSON.parse(row.data) as Record<string, unknown> } : {}),
    ...(row.user_key !== null ? { userKey: row.user_key } : {}),
  };
}

/** A message row on the wire. */
export function toMessage(row: MessageRow): ChatMessage {
  return toPostedMessage(row, undefined);
}

/**
 * A message row just stored on the wire, `parsed` being its payload and metadata as the values its JSON text
 * was made from, values that round-trip through JSON to themselves (a request body's): taken as they are
 * instead of parsing the text again (without them, as {@link toMessage}).
 */
export function toPostedMessage(
  row: MessageRow,
  parsed: { payload: MessagePayload; metadata: Record<string, unknown> | undefined } | undefined,
): ChatMessage {
  const metadata = parsed ? parsed.metadata : parse<Record<string, unknown>>(row.metadata);
  const feedback = parse<MessageFeedback>(row.feedback);
  return {
    id: row.id,
    createdAt: row.created_at,
    conversationId: row.conversation_id,
    userId: row.user_id,
    isBot: row.is_bot === 1,
    payload: parsed ? parsed.payload : (JSON.parse(row.payload) as MessagePayload),
    ...(metadata ? { metadata } : {}),
    ...(feedback ? { feedback } : {}),
  };
}

/** An event row on the wire. */
export function toEvent(row: EventRow): ChatEvent {
  return {
    id: row.id,
    createdAt: row.created_at,
    conversationId: row.conversation_id,
    userId: row.user_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

/** A conversation row on the wire; `handoff` once anybody but the bot was asked for or answered it. */
export const toConversation = (row: {
  id: string;
  created_at: string;
  updated_at: string;
  handoff_state?: string;
  assigned_name?: string | null;
}): ChatConversation => ({
  id: row.id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  ...(row.handoff_state && row.handoff_state !== 'bot'
    ? {
        handoff: {
          state: row.handoff_state as HandoffState,
          ...(row.handoff_state === 'assigned' && row.assigned_name ? { agentName: row.assigned_name } : {}),
        },
      }
    : {}),
});

/** Refuses (413 PayloadTooLarge) a value over the Chat API's 128 KB as JSON, naming `what` it is. */
export function checkPayloadSize(what: string, value: unknown): void {
  sizedJson(what, value);
}

/** A value as JSON text, refused (413 PayloadTooLarge) over the Chat API's 128 KB, naming `what` it is. */
export function sizedJson(what: string, value: unknown): string {
  const text = JSON.stringify(value);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_CHAT_PAYLOAD_BYTES) {
    throw new ApiError(
      'PayloadTooLarge',
      `The ${what} is ${size} bytes as JSON; the limit is ${MAX_CHAT_PAYLOAD_BYTES} bytes (128 KB). Send large content as a file (POST /files) and link it.`,
    );
  }
  return text;
}

/** A signal every stream of the conversation receives (not only adminKey ones). */
export function signalTo(conversationId: string, signal: ChatSignal): PendingSignal {
  return { conversationId, signal, adminOnly: false };
}

/** How a Chat API list is ordered and shown: its sort name, a row's sort key and id, a row as an item. */
export interface ListOrder<R, T> {
  sort: string;
  key: (row: R) => [string | number, string];
  wire: (row: R) => T;
}

/** One page of a Chat API list (20 items unless `pageSize` says otherwise); `read` fetches `limit + 1` rows. */
export async function chatPage<R, T>(
  query: ChatPageQuery,
  order: ListOrder<R, T>,
  read: (q: { limit: number; after: Cursor | undefined }) => Promise<R[]>,
): Promise<Page<T>> {
  const limit = query.pageSize ?? 20;
  const rows = await read({ limit, after: decodeCursor(query.nextToken, order.sort) });
  const page = toPage(rows, limit, order.sort, order.key);
  return { ...page, items: page.items.map(order.wire) };
}
