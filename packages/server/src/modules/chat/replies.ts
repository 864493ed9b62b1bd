import type { ChatContext } from './context.js';
import type { ChatService } from './contract.js';
import { botAnswers } from './handoff.js';
import { toMessage } from './records.js';
import { chatRepo } from './repo.js';

/** What the bot's answers read: its own messages (for source links), a message to answer and its history. */
export function chatReplies(ctx: Pick<ChatContext, 'db'>): Pick<ChatService, 'botMessage' | 'replyContext'> {
  const { db } = ctx;
  return {
    async botMessage(botId, messageId) {
      const row = await chatRepo(db).message(botId, messageId);
      return row?.is_bot === 1 ? toMessage(row) : undefined;
    },

    async replyContext(botId, messageId, historySize = 20) {
      const repo = chatRepo(db);
      const message = await repo.message(botId, messageId);
      if (!message) return undefined;
      const rows = await repo.listMessages({
        botId,
        conversationId: message.conversation_id,
        limit: historySize,
        after: undefined,
      });
      const already = await repo.repliesTo(botId, messageId);
      const conversation = await repo.conversation(botId, message.conversation_id);
      return {
        message: toMessage(message),
        history: rows.slice(0, historySize).reverse().map(toMessage),
        answered: already.length > 0,
        botAnswers: conversation !== undefined && botAnswers(conversation.handoff_state),
      };
    },
  };
}
