import type { TargetedUIEvent } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { UiState } from '../../store.js';

/** The message log's scrolling, as `useStickToBottom` returns it. */
export type LogScroll = ReturnType<typeof useStickToBottom>;

/**
 * Stick to the bottom only when already there; otherwise `unseen` turns on when messages arrive, for a
 * "New messages" button. `log` goes on the scrolling element, `onScroll` on its scroll event.
 */
export function useStickToBottom(state: UiState, shown: boolean) {
  const log = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seenCount = useRef(0);
  const [unseen, setUnseen] = useState(false);

  const count = state.messages.length + Object.keys(state.streams).length;
  useLayoutEffect(() => {
    const el = log.current;
    const grew = count > seenCount.current;
    seenCount.current = count;
    if (!el || !shown) return;
    if (atBottom.current) el.scrollTop = el.scrollHeight;
    else if (grew) setUnseen(true);
  }, [state.messages, state.streams, state.typing, shown, count]);

  const toBottom = () => {
    const el = log.current;
    atBottom.current = true;
    setUnseen(false);
    if (el) el.scrollTop = el.scrollHeight;
  };

  const onScroll = (e: TargetedUIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (atBottom.current) setUnseen(false);
  };

  return { log, unseen, toBottom, onScroll };
}
