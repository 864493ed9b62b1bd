import { BotFrame } from '../bot-frame.js';

/** Knowledge bases (being built). */
export function KnowledgePage() {
  return <BotFrame>{() => <h2>Knowledge bases</h2>}</BotFrame>;
}
