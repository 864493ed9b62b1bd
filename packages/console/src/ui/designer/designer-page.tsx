import { BotFrame } from '../bot-frame.js';

/** Webchat (being built). */
export function DesignerPage() {
  return <BotFrame>{() => <h2>Webchat</h2>}</BotFrame>;
}
