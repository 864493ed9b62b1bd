import { BotFrame } from '../bot-frame.js';

/** Knowledge base (being built). */
export function KnowledgeBasePage() {
  return <BotFrame>{() => <h2>Knowledge base</h2>}</BotFrame>;
}
