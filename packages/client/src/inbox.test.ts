import { describe, expect, it } from 'vitest';
import { unansweredConversation } from '../../testkit/src/client/unanswered.js';
import { useParley } from '../../testkit/src/client/use-parley.js';
import { ApiError, ResourceNotFoundError } from './errors.js';

describe('the client against the real server: conversations inbox', () => {
  const p = useParley({ workers: true });

  it('lists conversations with filters, reads one and walks its transcript', async () => {
    // The bot has no documents: its reply says it found nothing.
    const conversationId = await unansweredConversation(p, 'Where is the moon base?', 'Ana');
    const { conversations } = await p.admin.listBotConversations({ id: p.botId, unanswered: true });
    expect(conversations).toEqual([
      expect.objectContaining({ id: conversationId, unanswered: true, messageCount: 2 }),
    ]);
    const negative = await p.admin.listBotConversations({ id: p.botId, feedback: 'negative' });
    expect(negative.conversations).toEqual([]);
    const one = await p.admin.getBotConversation({ id: p.botId, conversationId });
    expect(one.conversation.lastMessage).toMatchObject({ isBot: true });

    const messages = await p.admin
      .listBotConversationMessages({ id: p.botId, conversationId, pageSize: 1 })
      .collect();
    expect(messages.map((m) => m.author)).toEqual(['visitor', 'bot']);
    expect(messages[1]).toMatchObject({ answer: 'not_found', details: { mode: 'not_found' } });
    const all = await p.admin.listBotConversations({ id: p.botId }).collect();
    expect(all.map((c) => c.id)).toContain(conversationId);
  });

  it('answers 404 for an unknown conversation and 400 for a bad filter', async () => {
    await expect(
      p.admin.getBotConversation({ id: p.botId, conversationId: 'conv_missing' }),
    ).rejects.toBeInstanceOf(ResourceNotFoundError);
    const error = await p.admin
      .listBotConversations({ id: p.botId, feedback: 'positive' as 'negative' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });
});
