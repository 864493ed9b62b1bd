import { expect } from 'vitest';
import { ChatClient } from '../../../client/src/chat.js';
import type { LiveParley } from './use-parley.js';

/**
 * A new visitor's conversation with one question the bot (which has no documents) leaves unanswered: answers
 * its id once the inbox lists it, alone, among the unanswered conversations.
 */
export async function unansweredConversation(
  p: LiveParley,
  question: string,
  name?: string,
): Promise<string> {
  const chat = new ChatClient({ botId: p.botId, apiUrl: p.apiUrl, retry: { attempts: 1 } });
  const visitor = chat.with({ userKey: (await chat.createUser(name ? { name } : {})).key });
  const { conversation } = await visitor.createConversation();
  await visitor.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: question } });
  const unanswered = async () =>
    (await p.admin.listBotConversations({ id: p.botId, unanswered: true })).conversations.map((c) => c.id);
  await expect.poll(unanswered, { timeout: 10_000 }).toEqual([conversation.id]);
  return conversation.id;
}
