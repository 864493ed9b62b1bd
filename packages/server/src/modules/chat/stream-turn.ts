import type { Socket } from 'node:net';
import type { StoredSignals } from './bus.js';

/** Notes whose frames may wait together in the sockets (~1 ms of a message's handling each, on SQLite). */
export const NOTES_HELD = 8;

/**
 * Who sends at once and who waits, among the signals announced during one turn of the event loop (one per
 * stream registry): the first note's frames go to each socket at once (its readers start on them while the
 * process goes on), and the frames of the notes after it in the same turn (a burst of messages handled back
 * to back) wait in their sockets, corked, until {@link NOTES_HELD} notes wait or the turn ends: one write per
 * listener for several messages instead of one per message. The held bytes count in each response's
 * `writableLength`, so a slow reader is still stopped at the registry's `bufferBytes`; order is untouched (a
 * socket sends what it was given, in order).
 */
export class BurstCorking {
  private first: StoredSignals | undefined;
  private last: StoredSignals | undefined;
  private notes = 0;
  private readonly held = new Set<Socket>();
  private ending = false;

  /** Whether the frames of `stored` go out at once, or wait in their sockets. */
  sendsAtOnce(stored: StoredSignals): boolean {
    if (this.first === undefined) {
      this.first = stored;
      this.endTurnSoon();
    }
    if (this.first === stored) return true;
    if (this.last !== stored) {
      this.last = stored;
      this.notes += 1;
      if (this.notes > NOTES_HELD) {
        this.release();
        this.notes = 1;
      }
    }
    return false;
  }

  /** Keeps what is written to `socket` in it until the held frames are released. */
  hold(socket: Socket): void {
    if (this.held.has(socket)) return;
    socket.cork();
    this.held.add(socket);
  }

  /** Sends what waits in the held sockets. */
  private release(): void {
    const held = [...this.held];
    this.held.clear();
    for (const socket of held) socket.uncork();
  }

  private endTurnSoon(): void {
    if (this.ending) return;
    this.ending = true;
    setImmediate(() => {
      this.first = undefined;
      this.last = undefined;
      this.notes = 0;
      this.ending = false;
      this.release();
    });
  }
}
