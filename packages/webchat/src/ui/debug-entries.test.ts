import type { ChatMessage } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { debugByMessage } from './debug-entries.js';

const message = (id: string, isBot: boolean) => ({ id, isBot }) as ChatMessage;

describe('debugByMessage', () => {
  it('keeps details keyed by the bot reply they explain under that reply', () => {
    const messages = [message('q', false), message('r', true)];
    expect(debugByMessage({ messages, debug: { r: [1] } })).toEqual({ r: [1] });
  });

  it('moves details keyed by a question to the first bot message after it, joining any already there', () => {
    const messages = [message('q', false), message('u', false), message('r', true), message('r2', true)];
    expect(debugByMessage({ messages, debug: { r: [1], q: [2] } })).toEqual({ r: [1, 2] });
  });

  it('leaves details under the question while no reply has arrived, and under an unknown id as given', () => {
    const messages = [message('q', false)];
    expect(debugByMessage({ messages, debug: { q: [1], gone: [2] } })).toEqual({ q: [1], gone: [2] });
  });
});
