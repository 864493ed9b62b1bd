import type { BotConversation } from '@parley/protocol/operations/io/inbox';
import { describe, expect, it } from 'vitest';
import { unansweredConversation } from '../../testkit/src/client/unanswered.js';
import { useParley } from '../../testkit/src/client/use-parley.js';

describe('the client against the real server: a conversation corrected by a Q&A entry', () => {
  const p = useParley({ workers: true });

  it('reads answeredByEntry on the conversation once an entry saved since answers its question', async () => {
    // The bot has no documents: the question goes unanswered, and no entry answers it yet.
    const conversationId = await unansweredConversation(p, 'Do you deliver on Sundays?');
    const before = await p.admin.getBotConversation({ id: p.botId, conversationId });
    expect(before.conversation.answeredByEntry).toBeUndefined();

    const { entry } = await p.admin.createQaEntry({
      id: p.botId,
      questions: ['deliver on sundays'],
      answer: 'No, Monday to Saturday.',
    });
    const after = await p.admin.getBotConversation({ id: p.botId, conversationId });
    const mark: BotConversation['answeredByEntry'] = after.conversation.answeredByEntry;
    expect(mark).toEqual({
      entryId: entry.id,
      since: entry.updatedAt,
      question: 'Do you deliver on Sundays?',
    });
    const listed = await p.admin.listBotConversations({ id: p.botId }).collect();
    expect(listed.find((c) => c.id === conversationId)?.answeredByEntry?.entryId).toBe(entry.id);
  });
});
