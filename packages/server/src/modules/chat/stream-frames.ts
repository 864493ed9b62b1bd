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
