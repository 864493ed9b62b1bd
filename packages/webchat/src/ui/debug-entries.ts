import type { UiState } from '../store.js';

/**
 * Debug details are keyed by the bot's reply they explain; details from a server that names only the
 * question are shown under the first bot message after it, or under the question until the reply arrives.
 */
export function debugByMessage(state: Pick<UiState, 'debug' | 'messages'>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [key, entries] of Object.entries(state.debug)) {
    const index = state.messages.findIndex((m) => m.id === key);
    const question = state.messages[index];
    const reply =
      question && !question.isBot ? state.messages.slice(index + 1).find((m) => m.isBot) : undefined;
    const target = reply?.id ?? key;
    out[target] = [...(out[target] ?? []), ...entries];
  }
  return out;
}
