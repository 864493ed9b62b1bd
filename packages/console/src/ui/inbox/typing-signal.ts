/** How often, at most, "typing" is told again while a person keeps typing. */
export const TYPING_EVERY_MS = 4000;
/** How long after the last keystroke the person counts as stopped. */
export const TYPING_IDLE_MS = 5000;

/**
 * Tells the visitor that a person types, sparingly: `typing(true)` at the first keystroke and again at most
 * every `everyMs` while keys come, `typing(false)` once no key came for `idleMs`, or at `stop()` (the reply
 * sent, the box left). A failed call is dropped: the indicator is a courtesy, the reply is what matters.
 */
export class TypingSignal {
  private lastSent = -Infinity;
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (typing: boolean) => Promise<unknown>,
    private readonly options = { everyMs: TYPING_EVERY_MS, idleMs: TYPING_IDLE_MS, now: () => Date.now() },
  ) {}

  /** A keystroke in the reply box. */
  input(): void {
    const now = this.options.now();
    if (now - this.lastSent >= this.options.everyMs) {
      this.lastSent = now;
      this.tell(true);
    }
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), this.options.idleMs);
  }

  /** The person stopped typing: told once, only when "typing" was. */
  stop(): void {
    clearTimeout(this.idle);
    this.idle = undefined;
    if (this.lastSent === -Infinity) return;
    this.lastSent = -Infinity;
    this.tell(false);
  }

  private tell(typing: boolean): void {
    this.send(typing).catch(() => undefined);
  }
}
