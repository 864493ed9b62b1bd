import { BotFrame } from '../bot-frame.js';

/** Insights (being built). */
export function InsightsPage() {
  return <BotFrame>{() => <h2>Insights</h2>}</BotFrame>;
}
