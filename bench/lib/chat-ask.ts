// Asking a bot as a webchat visitor does, for the answers benchmarks: a chat user, a conversation and text
// messages through the Chat API; each bot reply read back from the transcript (Admin API), with its answer
// mode, its sources (metadata.sources), its retrieval details and, for a choice payload, its options.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from './run.js';

/** The workspace owner of a bootstrapped server (its bootstrap.json), who reads transcripts. */
export interface Owner {
  url: string;
  token: string;
  workspaceId: string;
}

/** A choice a bot offers (a `choice` or `dropdown` payload's option): picking it posts its value. */
export interface ReplyChoice {
  label: string;
  value: string;
}

/** A bot reply as the benchmarks score it. */
export interface BotReply {
  /** Its answer mode (`not_found`, `passages`, …; `unknown` when the transcript names none). */
  answer: string;
  /** Its payload type (`markdown`, `text`, `choice`, …). */
  payloadType: string;
  /** Its markdown or text (a choice's question). */
  text: string;
  /** The file keys of its sources, in order. */
  sources: string[];
  /** A `choice` or `dropdown` payload's options; empty otherwise. */
  choices: ReplyChoice[];
  /** The retrieval details behind it (the transcript's `details`). */
  details: Record<string, unknown> | undefined;
  /** The server's time from the visitor's message to the reply (their `createdAt`s). */
  replyMs: number;
}

/** One visitor's conversation with a bot. */
export interface ChatSession {
  url: string;
  botId: string;
  owner: Owner;
  key: string;
  conversationId: string;
}

/** A JSON call that must answer 2xx within 60 s: its parsed answer. */
export async function json<T>(url: string, init: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const post = (key: string | undefined, body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key ? { 'x-user-key': key } : {}) },
  body: JSON.stringify(body),
});

/** A fresh chat user and conversation with the bot, as the webchat opens one. */
export async function openChat(url: string, botId: string, owner: Owner): Promise<ChatSession> {
  const chat = `${url}/v1/chat/${botId}`;
  const { key } = await json<{ key: string }>(`${chat}/users`, post(undefined, {}));
  const { conversation } = await json<{ conversation: { id: string } }>(
    `${chat}/conversations`,
    post(key, {}),
  );
  return { url, botId, owner, key, conversationId: conversation.id };
}

interface TranscriptMessage {
  id: string;
  author: string;
  createdAt: string;
  text: string;
  payload: {
    type?: string;
    markdown?: string;
    text?: string;
    options?: Array<{ label?: unknown; value?: unknown }>;
  };
  sources?: Array<{ key: string }>;
  answer?: string;
  details?: Record<string, unknown>;
}

/** A transcript message as a {@link BotReply}. */
function replyOf(message: TranscriptMessage, askedAt: string): BotReply {
  const payload = message.payload;
  const choices =
    payload.type === 'choice' || payload.type === 'dropdown'
      ? (payload.options ?? []).map((o) => ({ label: String(o.label ?? ''), value: String(o.value ?? '') }))
      : [];
  return {
    answer: message.answer ?? 'unknown',
    payloadType: payload.type ?? 'unknown',
    text: payload.markdown ?? payload.text ?? message.text,
    sources: (message.sources ?? []).map((s) => s.key),
    choices,
    details: message.details,
    replyMs: Date.parse(message.createdAt) - Date.parse(askedAt),
  };
}

/**
 * Posts `text` as the visitor (a text payload, with `value` when it picks a choice) and waits for the bot's
 * first message after it (60 s at most).
 */
export async function say(session: ChatSession, text: string, value?: string): Promise<BotReply> {
  const transcript = `${session.url}/v1/admin/bots/${session.botId}/conversations/${session.conversationId}/messages`;
  const headers = {
    authorization: `Bearer ${session.owner.token}`,
    'x-workspace-id': session.owner.workspaceId,
  };
  const { message } = await json<{ message: { id: string; createdAt: string } }>(
    `${session.url}/v1/chat/${session.botId}/messages`,
    post(session.key, {
      conversationId: session.conversationId,
      payload: { type: 'text', text, ...(value === undefined ? {} : { value }) },
    }),
  );
  const until = Date.now() + 60_000;
  for (;;) {
    const { messages } = await json<{ messages: TranscriptMessage[] }>(transcript, { headers });
    const mine = messages.findIndex((m) => m.id === message.id);
    const reply = mine < 0 ? undefined : messages.slice(mine + 1).find((m) => m.author === 'bot');
    if (reply) return replyOf(reply, message.createdAt);
    if (Date.now() > until) throw new Error(`no reply to "${text}" in 60 s`);
    await sleep(15);
  }
}

/** The owner of a server bootstrapped in `dataDir` (its bootstrap.json's token and workspace). */
export function ownerOf(server: { url: string }, dataDir: string): Owner {
  const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Omit<Owner, 'url'>;
  return { url: server.url, token: boot.token, workspaceId: boot.workspaceId };
}
