import { BotFrame } from '../bot-frame.js';

/** Conversations (being built). */
export function InboxPage() {
  return <BotFrame>{() => <h2>Conversations</h2>}</BotFrame>;
}
