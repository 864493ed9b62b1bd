import { BotFrame } from '../bot-frame.js';

/** Search playground (being built). */
export function PlaygroundPage() {
  return <BotFrame>{() => <h2>Search playground</h2>}</BotFrame>;
}
