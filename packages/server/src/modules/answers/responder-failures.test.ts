import type { ChatMessage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { builtInWords, ENGLISH_WORDS } from '../bots/index.js';
import type { KnowledgeResponderDeps } from './responder.js';
import { knowledgeResponder } from './responder.js';

const message: ChatMessage = {
  id: 'msg_1',
  createdAt: '2026-01-01T00:00:00.000Z',
  conversationId: 'conv_1',
  userId: 'user_1',
  isBot: false,
  payload: { type: 'text', text: 'How do refunds work?' },
};

function deps(search: KnowledgeResponderDeps['search']['search']): KnowledgeResponderDeps {
  return {
    search: { search },
    knowledgeBases: { list: async () => ({ items: [] }), fileIdsOf: async () => [] },
    files: {
      get: async () => {
        throw new Error('not used');
      },
    },
  };
}

type Search = KnowledgeResponderDeps['search']['search'];
type ReplyRequest = Parameters<ReturnType<typeof knowledgeResponder>['answer']>[0];

/** A search that fails with `reason`. */
const failingSearch =
  (reason: string): Search =>
  async () => {
    throw new Error(reason);
  };

/** Has a responder that searches with `search` answer `message` in conv_1 of bot in ws, with `request` on top. */
const answerWith = (search: Search, request: Partial<ReplyRequest> = {}) =>
  knowledgeResponder(deps(search)).answer({
    workspaceId: 'ws',
    botId: 'bot',
    conversationId: 'conv_1',
    message,
    history: [],
    ...request,
  });

describe('knowledgeResponder when search fails', () => {
  it('apologises instead of staying silent, with the error in debug', async () => {
    const reply = await answerWith(failingSearch('database is locked'));
    expect(reply.messages).toEqual([
      {
        payload: {
          type: 'text',
          text: "Sorry, I couldn't search my knowledge base just now. Please try again in a moment.",
        },
      },
    ]);
    expect(reply.debug).toMatchObject({ mode: 'search_failed', error: 'database is locked' });
  });

  it('gives up when the reply is cancelled', async () => {
    const controller = new AbortController();
    const search: Search = async () => {
      controller.abort(new Error('reply cancelled'));
      throw new Error('aborted');
    };
    await expect(answerWith(search, { signal: controller.signal })).rejects.toThrow('reply cancelled');
  });

  it('answers a blank message by inviting a question, without searching', async () => {
    const reply = await answerWith(failingSearch('should not search'), {
      message: { ...message, payload: { type: 'text', text: '   ' } },
    });
    expect(reply.messages[0]?.payload).toEqual({
      type: 'text',
      text: 'Ask me a question and I will look it up in my knowledge base.',
    });
  });
});

describe('knowledgeResponder with a Q&A entry found by its answer when search fails', () => {
  it("answers with the entry's answer (no passages to go first), not the apology", async () => {
    const responder = knowledgeResponder({
      ...deps(failingSearch('database is locked')),
      entries: {
        match: async () => ({
          entryId: 'qa_1',
          answer: 'Refunds take **5 days**.',
          wording: 'Refunds take 5 days.',
          by: 'answer',
          score: 0.7,
          bar: 0.6,
        }),
      },
    });
    const reply = await responder.answer({
      workspaceId: 'ws',
      botId: 'bot',
      conversationId: 'conv_1',
      message,
      history: [],
    });
    expect(reply.messages).toEqual([
      {
        payload: { type: 'markdown', markdown: 'Refunds take **5 days**.' },
        metadata: { answer: { mode: 'qa', entryId: 'qa_1' } },
      },
    ]);
    expect(reply.debug).toMatchObject({ mode: 'qa', qa: { entryId: 'qa_1', by: 'answer' } });
  });
});

describe("knowledgeResponder's own words in the visitor's language (issue #38)", () => {
  const fr = builtInWords('fr');
  const text = (reply: { messages: Array<{ payload: unknown }> }) => reply.messages.map((m) => m.payload);
  const visitor = (payload: ChatMessage['payload'], language?: string): ChatMessage => ({
    ...message,
    payload,
    ...(language ? { metadata: { language } } : {}),
  });

  it('greets a French visitor back in French, from the webchat locale or from the phrase alone', async () => {
    const withLocale = await answerWith(failingSearch('should not search'), {
      message: visitor({ type: 'text', text: 'bonjour' }, 'fr-FR'),
    });
    expect(text(withLocale)).toEqual([{ type: 'text', text: fr.smallTalkGreeting }]);
    expect(withLocale.debug).toMatchObject({ mode: 'small_talk', smallTalk: 'greeting' });
    const phrase = await answerWith(failingSearch('should not search'), {
      message: visitor({ type: 'text', text: 'Merci beaucoup !' }),
    });
    expect(text(phrase)).toEqual([{ type: 'text', text: fr.smallTalkThanks }]);
    // An English greeting with nothing else to tell stays English.
    const hello = await answerWith(failingSearch('should not search'), {
      message: visitor({ type: 'text', text: 'Hello!' }),
    });
    expect(text(hello)).toEqual([{ type: 'text', text: ENGLISH_WORDS.smallTalkGreeting }]);
  });

  it("answers a French visitor's blank message in French", async () => {
    const reply = await answerWith(failingSearch('should not search'), {
      message: visitor({ type: 'text', text: '  ' }, 'fr'),
    });
    expect(text(reply)).toEqual([{ type: 'text', text: fr.emptyMessage }]);
    expect(fr.emptyMessage).not.toBe(ENGLISH_WORDS.emptyMessage);
  });

  it("tells an image's sender in the conversation's language that it reads only text", async () => {
    const reply = await answerWith(failingSearch('should not search'), {
      message: visitor({ type: 'image', imageUrl: 'https://example.com/cat.png' }),
      language: 'de-AT',
    });
    expect(text(reply)).toEqual([{ type: 'text', text: builtInWords('de').unsupportedMessage }]);
    expect(reply.debug).toMatchObject({ mode: 'unsupported', payloadType: 'image' });
  });

  it('apologises in French when the search for a French question fails', async () => {
    const reply = await answerWith(failingSearch('database is locked'), {
      message: visitor({ type: 'text', text: 'Combien de temps faut-il pour être livré en Belgique ?' }),
    });
    expect(text(reply)).toEqual([{ type: 'text', text: fr.searchFailed }]);
    expect(reply).toMatchObject({ language: 'fr', debug: { mode: 'search_failed' } });
  });
});
