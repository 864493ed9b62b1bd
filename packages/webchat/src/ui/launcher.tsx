import type { RefObject } from 'preact';
import type { ResolvedConfiguration } from '../config.js';
import { format } from '../i18n.js';
import type { UiActions } from '../ui-actions.js';
import { ChatIcon } from './icons.js';
import { safeSrc } from './links.js';
import { useTexts } from './texts.js';

/** The floating button that opens and closes the window, with the unread count. */
export function Launcher({
  open,
  unread,
  locale,
  config,
  actions,
  buttonRef,
}: {
  open: boolean;
  unread: number;
  /** The UI language: the count is written in its digits. */
  locale: string;
  config: ResolvedConfiguration;
  actions: UiActions;
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  const s = useTexts();
  const label = open ? s.closeChat : format(s.openChat, { botName: config.botName });
  return (
    <button
      ref={buttonRef}
      type="button"
      class="pw-fab"
      aria-expanded={open}
      onClick={() => (open ? actions.close() : actions.open())}
    >
      {safeSrc(config.fabImage) ? <img src={safeSrc(config.fabImage)} alt="" /> : <ChatIcon />}
      {/* The name comes from the content, so the visible badge is part of it (WCAG 2.5.3). */}
      <span class="pw-sr">{label}</span>
      {unread > 0 && (
        <>
          <span class="pw-badge">
            {new Intl.NumberFormat(locale).format(Math.min(unread, 99))}
            {unread > 99 ? '+' : ''}
          </span>
          <span class="pw-sr"> {s.unread}</span>
        </>
      )}
    </button>
  );
}
