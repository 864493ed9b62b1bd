import { BotFrame } from '../bot-frame.js';

/** Logs (being built). */
export function LogsPage() {
  return <BotFrame>{() => <h2>Logs</h2>}</BotFrame>;
}
