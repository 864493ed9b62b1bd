import type { ChatMessage, MessagePayload } from '@parley/protocol';

/** What a user's message asks: a question to look up, or a payload the bot cannot read. */
export type Question = { kind: 'text'; text: string } | { kind: 'unsupported'; type: MessagePayload['type'] };

/**
 * The question a message asks. Text answers its `text`, or its `value` when it is a choice or button postback
 * (the value the bot offered, not the label the user saw); markdown its `markdown`; a choice or dropdown its
 * `text`; a bloc its text and markdown items joined. Images, audio, video, files, locations, cards and
 * carousels are unsupported. The text is trimmed (empty when the message is only white space).
 * @example questionOf({ type: 'text', text: 'Refund policy', value: 'refund policy' }) // { kind: 'text', text: 'refund policy' }
 */
export function questionOf(payload: MessagePayload): Question {
  const text = textOf(payload);
  if (text === undefined) return { kind: 'unsupported', type: payload.type };
  return { kind: 'text', text };
}

function textOf(payload: MessagePayload): string | undefined {
  switch (payload.type) {
    case 'text': {
      const value = payload.value?.trim();
      return value || payload.text.trim();
    }
    case 'markdown':
      return payload.markdown.trim();
    case 'choice':
    case 'dropdown':
      return payload.text.trim();
    case 'bloc': {
      const parts = payload.items.map((item) =>
        item.type === 'text' ? item.text.trim() : item.type === 'markdown' ? item.markdown.trim() : '',
      );
      const joined = parts.filter(Boolean).join('\n');
      return joined || undefined;
    }
    case 'image':
    case 'audio':
    case 'video':
    case 'file':
    case 'location':
    case 'card':
    case 'carousel':
      return undefined;
    default: {
      const never: never = payload;
      throw new Error(`unknown payload type ${JSON.stringify(never)}`);
    }
  }
}

/** The readable text of a message for a chat model's context (undefined for non-text payloads). */
export function messageText(message: ChatMessage): string | undefined {
  const q = questionOf(message.payload);
  return q.kind === 'text' && q.text ? q.text : undefined;
}

/**
 * Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character (search takes at most 1 KB).
 * @example truncateBytes('héllo', 2) // 'h'
 */
export function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let out = '';
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > maxBytes) break;
    bytes += n;
    out += ch;
  }
  return out;
}
