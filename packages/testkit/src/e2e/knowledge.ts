// A bot's knowledge as e2e tests set it up: through the public Files API, as any user of it would.
import { expect } from 'vitest';
import { asBot } from '../shared/bot-request.js';

/** An API call as the bot: answers the JSON body, and fails the test on a status of 300 or more. */
export type BotCall = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** {@link BotCall} on the server at `origin`, as the bot of `t` (its id and access key). */
export function botApi(origin: string, t: { botId: string; botKey: string }): BotCall {
  return async (method, path, body) => {
    const res = await fetch(`${origin}${path}`, asBot({ accessKey: t.botKey, id: t.botId }, method, body));
    const text = await res.text();
    expect(res.status, text).toBeLessThan(300);
    return JSON.parse(text) as Record<string, unknown>;
  };
}

/**
 * A Markdown document uploaded (upsert, then PUT the bytes to its uploadUrl), linked to a new knowledge base
 * named `knowledgeBase` (which starts its indexing), and indexed within 30 s (indexing_failed fails at once).
 * Answers the file id.
 */
export async function indexInKnowledgeBase(
  call: BotCall,
  doc: { key: string; text: string; knowledgeBase: string },
): Promise<string> {
  const bytes = Buffer.from(doc.text);
  const { file } = (await call('PUT', '/v1/files', {
    key: doc.key,
    size: bytes.length,
    contentType: 'text/markdown',
  })) as { file: { id: string; uploadUrl: string } };
  const put = await fetch(file.uploadUrl, { method: 'PUT', body: bytes });
  expect(put.status, await put.text()).toBe(200);
  const { knowledgeBase } = (await call('POST', '/v1/files/knowledge-bases', {
    name: doc.knowledgeBase,
  })) as {
    knowledgeBase: { id: string };
  };
  await call('PUT', `/v1/files/knowledge-bases/${knowledgeBase.id}/files/${file.id}`);
  // Polled, not expect.poll: this runs in beforeAll hooks too.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { file: now } = (await call('GET', `/v1/files/${file.id}`)) as { file: { status: string } };
    if (now.status === 'indexing_completed') break;
    expect(now.status).not.toBe('indexing_failed');
    if (Date.now() > deadline) throw new Error(`${doc.key} still ${now.status} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return file.id;
}
