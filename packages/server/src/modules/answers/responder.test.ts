import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorMessage } from '../../../../testkit/src/server/chat-message.js';
import { HANDBOOK, PARKING, uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { type ChatServer, startChatServer } from '../../../../testkit/src/server/openai-chat-server.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import type { KnowledgeResponder, Reply, ReplyRequest } from '../chat/contract.js';
import { openAiChatModel } from './chat-model.js';
import { NOT_FOUND_TEXT, SMALL_TALK_TEXT, UNSUPPORTED_TEXT } from './format.js';
import { UNSURE_SYSTEM_PROMPT } from './prompt.js';
import { semanticMinSimilarityFor } from './relevance.js';
import { knowledgeResponder } from './responder.js';
import { botContext } from './scope.js';

/**
 * Knowledge answers end to end inside the app: real uploads, indexing, knowledge bases and search, the
 * responder called as the chat module calls it, and a local server speaking the OpenAI chat completions
 * protocol standing in for a chat model.
 */

describe('knowledgeResponder', () => {
  let t: TestApp;
  let model: ChatServer;
  let handbookId: string;
  let parkingId: string;
  let plain: KnowledgeResponder;

  /**
   * Asks as the chat reply job does for a bot whose `sourceLinks` is `all` (every source linked: the link
   * mechanics these tests check); the setting's other values are tested on their own below.
   */
  const ask = (
    responder: KnowledgeResponder,
    text: string,
    stream?: { delta(text: string): void },
    /** null: no setting in the request (the responder's default). */
    sourceLinks: ReplyRequest['sourceLinks'] | null = 'all',
  ) => {
    const message = visitorMessage({ type: 'text', text });
    return responder.answer(
      {
        workspaceId: t.workspaceId,
        botId: t.botId,
        conversationId: 'conv_1',
        ...(sourceLinks ? { sourceLinks } : {}),
        message,
        history: [
          { ...visitorMessage({ type: 'text', text: 'Hello there' }) },
          { ...visitorMessage({ type: 'text', text: 'Hi! Ask me anything.' }), isBot: true, userId: 'bot' },
          message,
        ],
      },
      stream,
    );
  };
  /** Asks as the chat reply job does: the reply's own id (`msg_reply`) known beforehand. */
  const askForReply = (
    responder: KnowledgeResponder,
    text: string,
    /** null: no setting in the request (the responder's default). */
    sourceLinks: ReplyRequest['sourceLinks'] | null = 'all',
  ) => {
    const message = visitorMessage({ type: 'text', text });
    return responder.answer({
      workspaceId: t.workspaceId,
      botId: t.botId,
      conversationId: 'conv_1',
      message,
      history: [message],
      messageId: 'msg_reply',
      ...(sourceLinks ? { sourceLinks } : {}),
    });
  };
  const withModel = (options: { timeoutMs?: number } = {}) =>
    knowledgeResponder({
      search: t.app.services.search,
      knowledgeBases: t.app.services.knowledgeBases,
      files: t.app.services.files,
      chatModel: openAiChatModel({
        url: model.url,
        model: 'tiny-llm',
        apiKey: 'sk-local-test',
        timeoutMs: options.timeoutMs ?? 5000,
      }),
    });
  const markdownOf = (reply: Reply) => {
    const payload = reply.messages[0]?.payload;
    expect(payload?.type).toBe('markdown');
    return payload?.type === 'markdown' ? payload.markdown : '';
  };

  beforeAll(async () => {
    t = await createTestApp({ workers: true });
    model = await startChatServer();
    plain = knowledgeResponder({
      search: t.app.services.search,
      knowledgeBases: t.app.services.knowledgeBases,
      files: t.app.services.files,
    });
    handbookId = await uploadIndexed(t, 'handbook.md', HANDBOOK);
  });
  afterAll(async () => {
    await model.close();
    await t.close();
  });

  it('answers from all of the bot’s files while it has no knowledge base', async () => {
    const reply = await ask(plain, 'How long do I have to ask for a refund?');
    expect(markdownOf(reply)).toContain('refund within 30 days');
    expect(reply.debug).toMatchObject({ mode: 'passages', scope: 'all_files' });
  });

  it('names a source by its metadata title, else by its file name without the folders of its key', async () => {
    await uploadIndexed(t, 'policies/2026/exchanges.md', '# Exchanges\n\nThe exchange window is 14 days.');
    await uploadIndexed(t, 'policies/warranty.md', '# Warranty\n\nThe warranty lasts two years.', {
      metadata: { title: 'Warranty terms' },
    });
    const exchange = markdownOf(await ask(plain, 'How long is the exchange window?'));
    expect(exchange).toMatch(/— \[exchanges\.md\]\(http/);
    expect(exchange).not.toContain('policies/');
    const warranty = markdownOf(await ask(plain, 'How long does the warranty last?'));
    expect(warranty).toMatch(/— \[Warranty terms\]\(http/);
  });

  describe('with a knowledge base', () => {
    beforeAll(async () => {
      const kb = t.app.services.knowledgeBases;
      const ctx = botContext(t.workspaceId, t.botId);
      const created = await kb.create(ctx, { name: 'Support' });
      await kb.link(ctx, created.id, handbookId);
      // Indexed, but in no knowledge base: out of the bot's answers from now on.
      parkingId = await uploadIndexed(t, 'visitors.md', PARKING, { accessPolicies: ['public_content'] });
    });

    it('quotes the passage that answers, with a link to its source file that a chat user can open', async () => {
      const reply = await ask(plain, 'How long do I have to ask for a refund?');
      expect(reply.messages).toHaveLength(1);
      const markdown = markdownOf(reply);
      expect(markdown).toMatch(/^Here is what I found in my knowledge base:/);
      expect(markdown).toContain('> Customers may ask for a refund within 30 days of purchase.');
      const link = /— \[handbook\.md\]\((http[^)]+)\)/.exec(markdown)?.[1];
      expect(link).toBeDefined();
      const url = new URL(link as string);
      expect(url.pathname).toBe(`/v1/files/${handbookId}/content`);
      // A private file: a signed URL with an expiry.
      expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(Date.now());
      const download = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe(HANDBOOK);

      expect(reply.messages[0]?.metadata).toEqual({
        sources: [{ fileId: handbookId, key: 'handbook.md', score: expect.any(Number) }],
      });
      expect(reply.debug).toMatchObject({
        query: 'How long do I have to ask for a refund?',
        mode: 'passages',
        model: null,
        passages: expect.arrayContaining([
          expect.objectContaining({
            fileId: handbookId,
            key: 'handbook.md',
            score: expect.any(Number),
            used: true,
            content: expect.stringContaining('refund within 30 days'),
          }),
        ]),
      });
    });

    it('links sources through the reply’s own permanent source links when it knows the reply’s id', async () => {
      const responder = knowledgeResponder({
        search: t.app.services.search,
        knowledgeBases: t.app.services.knowledgeBases,
        files: t.app.services.files,
        publicUrl: 'https://parley.example.com',
      });
      const reply = await askForReply(responder, 'How long do I have to ask for a refund?');
      expect(markdownOf(reply)).toContain(
        `— [handbook.md](https://parley.example.com/v1/chat/${t.botId}/messages/msg_reply/sources/0)`,
      );
      expect(reply.messages[0]?.metadata).toEqual({
        sources: [{ fileId: handbookId, key: 'handbook.md', score: expect.any(Number) }],
      });
    });

    it('searches only the files linked to the bot’s knowledge bases', async () => {
      const reply = await ask(plain, 'Where can visitors park?');
      expect(reply.messages[0]?.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
      expect(reply.debug).toMatchObject({ mode: 'not_found', scope: { files: 1 } });
    });

    it('says plainly that it found nothing for an unrelated question', async () => {
      const reply = await ask(plain, 'What is the capital of Mongolia?');
      expect(reply.messages).toEqual([
        { payload: { type: 'text', text: NOT_FOUND_TEXT }, metadata: { sources: [] } },
      ]);
      expect(reply.debug).toMatchObject({ mode: 'not_found', query: 'What is the capital of Mongolia?' });
    });

    it('answers greetings and thanks itself instead of saying it found nothing', async () => {
      const hello = await ask(plain, 'Hello!');
      expect(hello.messages).toEqual([{ payload: { type: 'text', text: SMALL_TALK_TEXT.greeting } }]);
      expect(hello.debug).toMatchObject({ mode: 'small_talk', smallTalk: 'greeting' });
      const thanks = await ask(plain, 'thanks a lot');
      expect(thanks.messages).toEqual([{ payload: { type: 'text', text: SMALL_TALK_TEXT.thanks } }]);
      // A greeting followed by a question is a question.
      const question = await ask(plain, 'Hello, what is the capital of Mongolia?');
      expect(question.debug).toMatchObject({ mode: 'not_found' });
    });

    it('answers politely that it reads only text when sent an image', async () => {
      const reply = await plain.answer({
        workspaceId: t.workspaceId,
        botId: t.botId,
        conversationId: 'conv_1',
        message: visitorMessage({ type: 'image', imageUrl: 'https://example.com/cat.png' }),
        history: [],
      });
      expect(reply.messages).toEqual([{ payload: { type: 'text', text: UNSUPPORTED_TEXT } }]);
      expect(reply.debug).toMatchObject({ mode: 'unsupported', payloadType: 'image' });
    });

    it('names a private source without a link when the bot links public sources only (the default)', async () => {
      for (const sourceLinks of [null, 'public', 'none'] as const) {
        const reply = await ask(plain, 'How long do I have to ask for a refund?', undefined, sourceLinks);
        const markdown = markdownOf(reply);
        expect(markdown).toContain(
          '> Customers may ask for a refund within 30 days of purchase.\n\n— handbook.md',
        );
        expect(markdown).not.toMatch(/\]\(|https?:/);
        expect(reply.messages[0]?.metadata).toEqual({
          sources: [{ fileId: handbookId, key: 'handbook.md', score: expect.any(Number) }],
        });
        // Through the reply's own source links too: nothing to link.
        const responder = knowledgeResponder({
          search: t.app.services.search,
          knowledgeBases: t.app.services.knowledgeBases,
          files: t.app.services.files,
          publicUrl: 'https://parley.example.com',
        });
        const linked = markdownOf(
          await askForReply(responder, 'How long do I have to ask for a refund?', sourceLinks),
        );
        expect(linked).toContain('— handbook.md');
        expect(linked).not.toMatch(/\]\(|https?:/);
      }
    });

    it('links public files with their permanent URL (public and all), names them only with none', async () => {
      const kb = t.app.services.knowledgeBases;
      const ctx = botContext(t.workspaceId, t.botId);
      const created = await kb.create(ctx, { name: 'Visitors' });
      await kb.link(ctx, created.id, parkingId);
      for (const sourceLinks of ['public', 'all'] as const) {
        const reply = await ask(plain, 'Where can visitors park?', undefined, sourceLinks);
        const link = /— \[visitors\.md\]\((http[^)]+)\)/.exec(markdownOf(reply))?.[1] as string;
        const url = new URL(link);
        expect(url.searchParams.get('public')).toBe('1');
        expect(url.searchParams.has('expires')).toBe(false);
        expect((await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body).toBe(
          PARKING,
        );
      }
      const named = markdownOf(await ask(plain, 'Where can visitors park?', undefined, 'none'));
      expect(named).toContain('— visitors.md');
      expect(named).not.toMatch(/\]\(|https?:/);
    });

    describe('with a chat model', () => {
      it('answers with the model’s text and a Sources list, sending it the passages, question, model name and key', async () => {
        model.requests.length = 0;
        model.behave({ kind: 'answer', pieces: ['You have 30 days to ask for a refund [1].'] });
        const reply = await ask(withModel(), 'How long do I have to ask for a refund?');
        const markdown = markdownOf(reply);
        expect(markdown).toMatch(
          /^You have 30 days to ask for a refund \[1\]\.\n\n\*\*Sources\*\*\n\n- \\\[1\\\] \[handbook\.md\]\(http/,
        );
        expect(reply.messages[0]?.metadata).toEqual({
          sources: [{ fileId: handbookId, key: 'handbook.md', score: expect.any(Number) }],
        });

        expect(model.requests).toHaveLength(1);
        const request = model.requests[0];
        expect(request?.headers.authorization).toBe('Bearer sk-local-test');
        expect(request?.body.model).toBe('tiny-llm');
        expect(request?.body.stream).toBeUndefined();
        const messages = request?.body.messages ?? [];
        expect(messages[0]?.role).toBe('system');
        expect(messages.slice(1, -1)).toEqual([
          { role: 'user', content: 'Hello there' },
          { role: 'assistant', content: 'Hi! Ask me anything.' },
        ]);
        const prompt = messages.at(-1)?.content ?? '';
        expect(prompt).toContain('[1] (handbook.md › Parley handbook › Refunds)');
        expect(prompt).toContain('Customers may ask for a refund within 30 days of purchase.');
        expect(prompt).toContain('Question: How long do I have to ask for a refund?');

        expect(reply.debug).toMatchObject({
          mode: 'generated',
          model: { name: 'tiny-llm', latencyMs: expect.any(Number), streamed: false },
        });
      });

      it('links each cited source to the reply’s own source link, numbered by its place in metadata.sources', async () => {
        model.behave({ kind: 'answer', pieces: ['Visitors park on level 2 [2].'] });
        const responder = knowledgeResponder({
          search: t.app.services.search,
          knowledgeBases: t.app.services.knowledgeBases,
          files: t.app.services.files,
          publicUrl: 'https://parley.example.com',
          chatModel: openAiChatModel({ url: model.url, model: 'tiny-llm', apiKey: 'k', timeoutMs: 5000 }),
        });
        // Two documents each answering half of the question: both are sources.
        const kb = t.app.services.knowledgeBases;
        const ctx = botContext(t.workspaceId, t.botId);
        const [support] = (await kb.list(ctx, {})).items;
        await kb.link(ctx, support?.id as string, parkingId);
        const reply = await askForReply(
          responder,
          'Refunds within 30 days, and where can visitors park?',
        ).finally(() => kb.unlink(ctx, support?.id as string, parkingId));
        const passages = (reply.debug?.passages ?? []) as Array<{ fileId: string; used: boolean }>;
        const used = passages.filter((p) => p.used);
        expect(used.map((p) => p.fileId)).toEqual([handbookId, parkingId]);
        // Source [2] of the prompt is the only one cited: the first (index 0) of the reply's sources.
        expect(markdownOf(reply)).toMatch(
          /\*\*Sources\*\*\n\n- \\\[2\\\] \[[^\]]+\]\(https:\/\/parley\.example\.com\/v1\/chat\/[^/]+\/messages\/msg_reply\/sources\/0\)$/,
        );
        expect(markdownOf(reply)).toContain(`/v1/chat/${t.botId}/messages/msg_reply/sources/0)`);
        const metadata = (reply.messages[0]?.metadata ?? {}) as { sources?: Array<{ fileId: string }> };
        const sources = metadata.sources ?? [];
        expect(sources).toHaveLength(1);
        expect(sources[0]?.fileId).toBe(used[1]?.fileId);
      });

      it('streams the answer through stream.delta, in order', async () => {
        model.requests.length = 0;
        const pieces = ['Within ', '30 days', ' of purchase', ' [1].'];
        model.behave({ kind: 'answer', pieces });
        const deltas: string[] = [];
        const reply = await ask(withModel(), 'How long do I have to ask for a refund?', {
          delta: (text) => deltas.push(text),
        });
        expect(deltas).toEqual(pieces);
        expect(model.requests[0]?.body.stream).toBe(true);
        expect(markdownOf(reply)).toMatch(/^Within 30 days of purchase \[1\]\.\n\n\*\*Sources\*\*/);
        expect(reply.debug).toMatchObject({ mode: 'generated', model: { name: 'tiny-llm', streamed: true } });
      });

      it('falls back to the passages, with the error in debug, when the model answers 500', async () => {
        model.behave({ kind: 'status', status: 500, message: 'model overloaded' });
        const reply = await ask(withModel(), 'How long do I have to ask for a refund?');
        expect(markdownOf(reply)).toContain('> Customers may ask for a refund within 30 days of purchase.');
        expect(reply.debug).toMatchObject({
          mode: 'passages',
          model: { name: 'tiny-llm', error: expect.stringContaining('answered 500: model overloaded') },
        });
      });

      it('falls back to the passages, with the error in debug, when the model does not answer in time', async () => {
        model.behave({ kind: 'hang' });
        const deltas: string[] = [];
        const reply = await ask(withModel({ timeoutMs: 300 }), 'How long do I have to ask for a refund?', {
          delta: (text) => deltas.push(text),
        });
        expect(deltas).toEqual([]);
        expect(markdownOf(reply)).toContain('> Customers may ask for a refund within 30 days of purchase.');
        expect(reply.debug).toMatchObject({
          mode: 'passages',
          model: {
            name: 'tiny-llm',
            streamed: true,
            error: expect.stringContaining('did not answer within 300 ms'),
          },
        });
      });

      it('sends the quoted passage first, and says "not found" when the model says the passages do not answer', async () => {
        model.requests.length = 0;
        model.behave({ kind: 'answer', pieces: ['NO_', 'ANSWER'] });
        const deltas: string[] = [];
        const reply = await ask(withModel(), 'How long do I have to ask for a refund?', {
          delta: (text) => deltas.push(text),
        });
        const messages = model.requests[0]?.body.messages ?? [];
        expect(messages[0]).toEqual({ role: 'system', content: UNSURE_SYSTEM_PROMPT });
        const prompt = messages.at(-1)?.content ?? '';
        expect(prompt).toMatch(
          /^Passages:\n\n\[1\] \(handbook\.md › Parley handbook › Refunds\)\nCustomers may ask/,
        );
        // "NO_ANSWER" is not the model's words to show: nothing was streamed, the bot's "not found" is the reply.
        expect(deltas).toEqual([]);
        expect(reply.messages[0]?.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
        expect(reply.debug).toMatchObject({
          mode: 'not_found',
          model: { answer: 'NO_ANSWER', streamed: true },
        });
      });

      it('streams an answer that starts like NO_ANSWER once it cannot be it', async () => {
        model.behave({ kind: 'answer', pieces: ['No', ', ', 'not after 30 days [1].'] });
        const deltas: string[] = [];
        const reply = await ask(withModel(), 'How long do I have to ask for a refund?', {
          delta: (text) => deltas.push(text),
        });
        expect(deltas).toEqual(['No, ', 'not after 30 days [1].']);
        expect(markdownOf(reply)).toMatch(/^No, not after 30 days \[1\]\.\n\n\*\*Sources\*\*/);
      });

      it('does not call the model when nothing relevant is found', async () => {
        model.requests.length = 0;
        const reply = await ask(withModel(), 'What is the capital of Mongolia?');
        expect(reply.messages[0]?.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
        expect(model.requests).toHaveLength(0);
      });
    });
  });
});

describe('knowledgeResponder with the shipped USE-lite model (hybrid search)', () => {
  let t: TestApp;
  const embedder = new UseLiteEmbedder();
  let responder: KnowledgeResponder;
  const ask = (text: string) =>
    responder.answer({
      workspaceId: t.workspaceId,
      botId: t.botId,
      conversationId: 'conv_2',
      message: visitorMessage({ type: 'text', text }),
      history: [],
    });

  beforeAll(async () => {
    await embedder.ready();
    t = await createTestApp({ workers: true, embedder });
    responder = knowledgeResponder({
      search: t.app.services.search,
      knowledgeBases: t.app.services.knowledgeBases,
      files: t.app.services.files,
      semanticMinSimilarity: semanticMinSimilarityFor(t.app.services.embedder),
    });
    await uploadIndexed(t, 'refunds.txt', 'Purchases may be returned within thirty days for a full refund.');
    await uploadIndexed(
      t,
      'shipping.txt',
      'Parcels leave our warehouse every weekday and arrive within five days.',
    );
    await uploadIndexed(t, 'dogs.txt', 'Dogs need a walk at least twice a day and fresh water.');
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await embedder.close();
  });

  it('quotes the passage a question worded differently means, with no word in common', async () => {
    const reply = await ask('Can I get reimbursed if I send an item back?');
    const payload = reply.messages[0]?.payload;
    expect(payload?.type).toBe('markdown');
    expect(payload?.type === 'markdown' && payload.markdown).toContain(
      '> Purchases may be returned within thirty days for a full refund.\n\n— refunds.txt',
    );
    expect(reply.messages[0]?.metadata).toEqual({
      sources: [{ fileId: expect.any(String), key: 'refunds.txt', score: expect.any(Number) }],
    });
    expect(reply.debug).toMatchObject({ mode: 'passages', semantic: { minSimilarity: 0.5 } });
  });

  it('still says plainly that it found nothing for an unrelated question, though meaning search always answers', async () => {
    const reply = await ask('What is the capital of Mongolia?');
    expect(reply.messages[0]?.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
    const semantic = (reply.debug as { semantic: { passages: unknown[] } }).semantic.passages;
    expect(semantic.length).toBeGreaterThan(0);
  });
});
