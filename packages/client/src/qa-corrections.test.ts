import { describe, expect, it } from 'vitest';
import { useParley } from '../../testkit/src/client/use-parley.js';
import { ChatClient } from './chat.js';
import type { BotConversation } from './inbox-types.js';

describe('the client against the real server: a conversation corrected by a Q&A entry', () => {
  const p = useParley({ workers: true });

  it('reads answeredByEntry on the conversation once an entry saved since answers its question', async () => {
    const chat = new ChatClient({ botId: p.botId, apiUrl: p.apiUrl, retry: { attempts: 1 } });
    const visitor = chat.with({ userKey: (await chat.createUser({})).key });
    const { conversation } = await visitor.createConversation();
    await visitor.createMessage({
      conversationId: conversation.id,
      payload: { type: 'text', text: 'Do you deliver on Sundays?' },
    });
    // The bot has no documents: the question goes unanswered, and no entry answers it yet.
    await expect
      .poll(
        async () =>
          (await p.admin.listBotConversations({ id: p.botId, unanswered: true })).conversations.map(
            (c) => c.id,
          ),
        { timeout: 10_000 },
      )
      .toEqual([conversation.id]);
    const before = await p.admin.getBotConversation({ id: p.botId, conversationId: conversation.id });
    expect(before.conversation.answeredByEntry).toBeUndefined();

    const { entry } = await p.admin.createQaEntry({
      id: p.botId,
      questions: ['deliver on sundays'],
      answer: 'No, Monday to Saturday.',
    });
    const after = await p.admin.getBotConversation({ id: p.botId, conversationId: conversation.id });
    const mark: BotConversation['answeredByEntry'] = after.conversation.answeredByEntry;
    expect(mark).toEqual({
      entryId: entry.id,
      since: entry.updatedAt,
      question: 'Do you deliver on Sundays?',
    });
    const listed = await p.admin.listBotConversations({ id: p.botId }).collect();
    expect(listed.find((c) => c.id === conversation.id)?.answeredByEntry?.entryId).toBe(entry.id);
  });
});
