import { BotFrame } from '../bot-frame.js';

/** File (being built). */
export function FilePage() {
  return <BotFrame>{() => <h2>File</h2>}</BotFrame>;
}
