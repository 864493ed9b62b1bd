import { BotFrame } from '../bot-frame.js';

/** Conversation (being built). */
export function ConversationPage() {
  return <BotFrame>{() => <h2>Conversation</h2>}</BotFrame>;
}
