// A Server-Sent Events reader over plain fetch, as any HTTP client would read a chat stream: frames parsed by
// hand (id, event, data), kept in order, waited for by predicate.

import { waitFor } from './waiters.js';

/** One frame of the stream. */
export interface SseFrame {
  id: string | undefined;
  event: string;
  /** `data` parsed as JSON (the chat stream's frames are `{type, data}`), or the raw text. */
  data: unknown;
}

/** An open stream: its response, the frames read so far, and how to wait for more. */
export interface SseStream {
  status: number;
  headers: Headers;
  frames: SseFrame[];
  /** Resolves with the frames read once `predicate` holds for them; rejects after `timeoutMs` or at the end. */
  until(predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<SseFrame[]>;
  close(): void;
}

function parseFrame(block: string): SseFrame | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  const text = data.join('\n');
  try {
    return { id, event, data: JSON.parse(text) };
  } catch {
    return { id, event, data: text };
  }
}

/** Opens `url` as an event stream with `headers` and reads it in the background until closed. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  void (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true }).replace(/\r\n?/g, '\n');
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (frame) frames.push(frame);
        }
        notify();
      }
    } catch {
      // closed
    } finally {
      ended = true;
      notify();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    frames,
    until(predicate, timeoutMs = 30_000) {
      return waitFor(
        waiters,
        () => {
          if (predicate(frames)) return frames;
          if (ended)
            throw new Error(`the stream ended first; frames: ${JSON.stringify(frames).slice(-2000)}`);
          return undefined;
        },
        timeoutMs,
        () => new Error(`timed out; frames: ${JSON.stringify(frames).slice(-2000)}`),
      );
    },
    close: () => controller.abort(),
  };
}
