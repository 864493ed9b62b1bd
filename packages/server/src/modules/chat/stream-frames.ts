import type { ServerResponse } from 'node:http';

/** A signal row as streams write it; `adminOnly` rows go to admin callers only. */
export type SignalFrameRow = { cursor: number; type: string; data: string; adminOnly?: boolean };

/**
 * The SSE frames of rows, by row: streams woken by one signal share one read (`chat.signalsAfter`), hence
 * its row objects, so a message is encoded once and the same bytes are written to each of its listeners.
 */
const frames = new WeakMap<SignalFrameRow, Buffer>();

/** A signal row's SSE frame: `id: <cursor>`, `event: message`, `data: {"type": …, "data": …}`. */
export function frameOf(row: SignalFrameRow): Buffer {
  let frame = frames.get(row);
  if (!frame) {
    frame = Buffer.from(
      `id: ${row.cursor}\nevent: message\ndata: {"type":${JSON.stringify(row.type)},"data":${row.data}}\n\n`,
    );
    frames.set(row, frame);
  }
  return frame;
}

/** A ping: an SSE frame of its own that keeps idle connections (and the proxies on their way) open. */
export const PING_FRAME = Buffer.from('event: message\ndata: {"type":"ping","data":{}}\n\n');

const CRLF = Buffer.from('\r\n');

/** Frames as HTTP/1.1 chunks (`<size in hex>\r\n<frame>\r\n`), by frame: built once, for every listener. */
const chunks = new WeakMap<Buffer, Buffer>();

function chunkOf(frame: Buffer): Buffer {
  let chunk = chunks.get(frame);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`, 'latin1'), frame, CRLF]);
    chunks.set(frame, chunk);
  }
  return chunk;
}

/**
 * Writes an SSE frame to a live stream's response. Once its headers went out with chunked transfer encoding
 * and the response itself holds nothing back, the frame goes to the socket as one chunk built once per frame
 * and shared by every listener: one socket write per listener, where `res.write` writes four pieces (size,
 * line end, frame, line end) behind a cork it lifts on the next tick. At 100 listeners that took ~13% of the
 * server's CPU per message off (docs/benchmarks/chat-stream.md). Otherwise (an HTTP/1.0 reader, whose
 * body is not chunked; bytes waiting in the response) through `res.write`. Order is kept either way: the
 * response writes to the same socket, and writes nothing of its own while it holds nothing. What waits in the
 * socket counts in `res.writableLength`, so the slow-reader limits see it; the socket, not the response,
 * says `drain`.
 */
export function writeFrame(res: ServerResponse, frame: Buffer): void {
  const socket = res.socket;
  if (res.chunkedEncoding && res.headersSent && socket && res.writableLength === socket.writableLength) {
    socket.write(chunkOf(frame));
    return;
  }
  res.write(frame);
}
