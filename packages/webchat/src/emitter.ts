/** Event types of the webchat (spec "Events"), plus `*` which receives every event. */
export const EVENT_TYPES = [
  'conversation',
  'message',
  'error',
  'customEvent',
  'handoff',
  'webchat:initialized',
  'webchat:ready',
  'webchat:opened',
  'webchat:closed',
] as const;
/** One event type. */
export type EventType = (typeof EVENT_TYPES)[number];
/** What a `*` handler receives: the event's type and its data. */
export interface AnyEvent {
  type: EventType;
  data: unknown;
}
/** An event handler. */
export type Handler = (data: unknown) => void;

/**
 * Lifecycle moments that happen once: a handler registered after the moment still receives it
 * (asynchronously, in a microtask), so a late `on('webchat:ready')` never waits forever.
 */
export const STICKY_EVENTS: readonly EventType[] = ['webchat:initialized', 'webchat:ready'];

/** An event emitter with sticky lifecycle events and a `*` wildcard. */
export interface Emitter {
  on(type: string, handler: Handler): () => void;
  emit(type: EventType, data: unknown): void;
  /** True once a sticky event has fired. */
  has(type: EventType): boolean;
}

/**
 * Creates the webchat's event emitter. A handler that throws never stops the others: its error is
 * reported on the console (not re-emitted, which could loop).
 * @example const e = createEmitter(); const off = e.on('message', (m) => console.log(m)); off();
 */
export function createEmitter(): Emitter {
  const handlers = new Map<string, Set<Handler>>();
  const fired = new Map<EventType, unknown>();

  function call(handler: Handler, data: unknown) {
    try {
      handler(data);
    } catch (error) {
      console.error('[parley] an event handler threw:', error);
    }
  }

  return {
    on(type, handler) {
      if (typeof handler !== 'function') throw new TypeError('on(type, handler): handler must be a function');
      if (type !== '*' && !(EVENT_TYPES as readonly string[]).includes(type)) {
        throw new TypeError(
          `on(type, handler): unknown event type "${type}" (one of ${EVENT_TYPES.join(', ')}, *)`,
        );
      }
      let set = handlers.get(type);
      if (!set) {
        set = new Set();
        handlers.set(type, set);
      }
      // Wrap, so the same function registered twice gets two independent subscriptions.
      const entry: Handler = (data) => handler(data);
      set.add(entry);
      let active = true;
      for (const [sticky, data] of fired) {
        if (type === sticky || type === '*') {
          const payload = type === '*' ? ({ type: sticky, data } satisfies AnyEvent) : data;
          queueMicrotask(() => {
            if (active) call(entry, payload);
          });
        }
      }
      return () => {
        active = false;
        set.delete(entry);
      };
    },
    emit(type, data) {
      if (STICKY_EVENTS.includes(type)) {
        if (fired.has(type)) return;
        fired.set(type, data);
      }
      for (const entry of [...(handlers.get(type) ?? [])]) call(entry, data);
      for (const entry of [...(handlers.get('*') ?? [])]) call(entry, { type, data } satisfies AnyEvent);
    },
    has(type) {
      return fired.has(type);
    },
  };
}
