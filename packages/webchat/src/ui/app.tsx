import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { fontStack } from '../config.js';
import type { UiActions } from '../controller.js';
import { format } from '../i18n.js';
import type { Store, UiState } from '../store.js';
import { brandColors } from './colors.js';
import { debugByMessage } from './debug-entries.js';
import { AttachIcon, ChatIcon, CloseIcon, RestartIcon, SendIcon } from './icons.js';
import { hrefOf, safeHref } from './links.js';
import { Markdown } from './markdown-view.js';
import { Message } from './message.js';
import { Texts } from './texts.js';

function useStore(store: Store): UiState {
  const [state, setState] = useState(store.get());
  useEffect(() => {
    setState(store.get());
    return store.subscribe(() => setState(store.get()));
  }, [store]);
  return state;
}

function linkHref(kind: string, link: string): string | undefined {
  if (kind === 'phone' && !/^(tel:|https?:)/i.test(link)) return `tel:${link.replace(/[^0-9+]/g, '')}`;
  if (kind === 'email' && !/^mailto:/i.test(link)) return safeHref(`mailto:${link}`);
  return safeHref(link);
}

const LINKS = ['phone', 'email', 'website', 'termsOfService', 'privacyPolicy'] as const;

/** The whole webchat: launcher, window, header, message log, composer, footer. */
export function App({ store, actions }: { store: Store; actions: UiActions }) {
  const state = useStore(store);
  const { config, open, layout, strings: s } = state;
  const fullscreen = layout === 'fullscreen';
  const shown = open || fullscreen;
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const fab = useRef<HTMLButtonElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const seenCount = useRef(0);
  const wasOpen = useRef(false);
  const [text, setText] = useState('');
  const [unseen, setUnseen] = useState(false);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    if (shown && !wasOpen.current) input.current?.focus();
    if (!shown && wasOpen.current) fab.current?.focus();
    wasOpen.current = shown;
  }, [shown]);

  // Phones: the window takes the visual viewport's height and offset, so the on-screen keyboard never
  // covers the composer (the CSS uses these only under 768 px).
  useEffect(() => {
    const viewport = window.visualViewport;
    const el = root.current;
    if (!viewport || !el) return;
    const update = () => {
      el.style.setProperty('--pw-vv-height', `${viewport.height}px`);
      el.style.setProperty('--pw-vv-top', `${viewport.offsetTop}px`);
    };
    update();
    viewport.addEventListener('resize', update);
    viewport.addEventListener('scroll', update);
    return () => {
      viewport.removeEventListener('resize', update);
      viewport.removeEventListener('scroll', update);
    };
  }, []);

  // Stick to the bottom only when already there; otherwise offer a "New messages" button.
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

  const submit = () => {
    const value = text.trim();
    if (!value || state.busy) return;
    setText('');
    toBottom();
    actions.send(value);
  };

  const upload = (files: FileList | null | undefined) => {
    const list = files ? Array.from(files) : [];
    if (!config.allowFileUpload || list.length === 0) return false;
    toBottom();
    actions.upload(list);
    return true;
  };

  const colors = brandColors(config.color, config.themeMode);
  const rootStyle = {
    '--pw-color': config.color,
    '--pw-fill': colors.fill,
    '--pw-on-color': colors.onFill,
    '--pw-color-text': colors.text,
    '--pw-radius': `${config.radius}rem`,
    '--pw-font': fontStack(config.fontFamily),
  };
  const footer = config.footer === undefined ? s.poweredBy : config.footer;
  const last = state.messages[state.messages.length - 1];
  const debug = config.adminKey ? debugByMessage(state) : {};
  const fabLabel = open ? s.closeChat : format(s.openChat, { botName: config.botName });
  const uploading = state.upload && format(s.uploading, { name: state.upload.name });

  return (
    <Texts.Provider value={s}>
      <div
        ref={root}
        class="pw-root"
        lang={state.locale}
        data-theme={config.themeMode}
        data-variant={config.variant}
        data-layout={layout}
        style={rootStyle}
      >
        {!fullscreen && (
          <button
            ref={fab}
            type="button"
            class="pw-fab"
            aria-expanded={open}
            onClick={() => (open ? actions.close() : actions.open())}
          >
            {config.fabImage ? <img src={config.fabImage} alt="" /> : <ChatIcon />}
            {/* The name comes from the content, so the visible badge is part of it (WCAG 2.5.3). */}
            <span class="pw-sr">{fabLabel}</span>
            {state.unread > 0 && (
              <>
                <span class="pw-badge">{state.unread > 99 ? '99+' : state.unread}</span>
                <span class="pw-sr"> {s.unread}</span>
              </>
            )}
          </button>
        )}
        <div
          class="pw-window"
          role="dialog"
          aria-modal="false"
          aria-labelledby="pw-title"
          hidden={!shown}
          data-dragging={dragging || undefined}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !fullscreen) {
              e.stopPropagation();
              actions.close();
            }
          }}
          onDragOver={(e) => {
            if (!config.allowFileUpload || !e.dataTransfer?.types.includes('Files')) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'copy';
            setDragging(true);
          }}
          onDragLeave={(e) => {
            const to = e.relatedTarget as Node | null;
            if (!to || !(e.currentTarget as HTMLElement).contains(to)) setDragging(false);
          }}
          onDrop={(e) => {
            setDragging(false);
            if (upload(e.dataTransfer?.files)) e.preventDefault();
          }}
        >
          <div class="pw-header" data-variant={config.headerVariant}>
            {config.botAvatar && <img class="pw-avatar" src={config.botAvatar} alt="" />}
            <div class="pw-title">
              <h2 id="pw-title">{config.botName}</h2>
              {config.botDescription && <p>{config.botDescription}</p>}
              {LINKS.some((k) => config[k]) && (
                <ul class="pw-links">
                  {LINKS.map((k) => {
                    const link = config[k];
                    return link ? (
                      <li>
                        <a
                          {...hrefOf(linkHref(k, link.link))}
                          data-link={k}
                          {...(k === 'phone' || k === 'email'
                            ? {}
                            : { target: '_blank', rel: 'noopener noreferrer' })}
                        >
                          {link.title || link.link}
                        </a>
                      </li>
                    ) : null;
                  })}
                </ul>
              )}
            </div>
            <button
              type="button"
              class="pw-icon-btn"
              aria-label={s.newConversation}
              onClick={() => actions.restart()}
            >
              <RestartIcon />
            </button>
            {!fullscreen && (
              <button
                type="button"
                class="pw-icon-btn"
                aria-label={s.closeChat}
                onClick={() => actions.close()}
              >
                <CloseIcon />
              </button>
            )}
          </div>
          <div class="pw-log-wrap">
            <div
              ref={log}
              class="pw-log"
              role="log"
              aria-live="polite"
              aria-relevant="additions"
              aria-label={s.messages}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard (WCAG 2.1.1)
              tabIndex={0}
              onScroll={(e) => {
                const el = e.currentTarget;
                atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
                if (atBottom.current) setUnseen(false);
              }}
            >
              {state.messages.map((m) => (
                <Message message={m} state={state} actions={actions} last={m === last} debug={debug[m.id]} />
              ))}
              {Object.entries(state.streams).map(([id, partial]) => (
                <div class="pw-msg" data-from="bot" data-stream-id={id}>
                  <Markdown className="pw-bubble" source={partial} />
                </div>
              ))}
              {state.typing && (
                <div
                  class="pw-typing"
                  role="status"
                  aria-label={format(s.typing, { botName: config.botName })}
                >
                  <span />
                  <span />
                  <span />
                </div>
              )}
            </div>
            {unseen && (
              <button type="button" class="pw-new" onClick={toBottom}>
                {s.newMessages} ↓
              </button>
            )}
          </div>
          {state.upload && (
            <div class="pw-upload" role="status">
              <span>{uploading}</span>
              <progress aria-label={uploading} max={state.upload.total || 1} value={state.upload.loaded} />
            </div>
          )}
          {state.notice && (
            <div class="pw-notice" role="alert">
              {format(s[state.notice.key], state.notice.values ?? {})}
            </div>
          )}
          <form
            class="pw-composer"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            {config.allowFileUpload && (
              <span class="pw-icon-btn pw-file">
                <AttachIcon />
                <input
                  type="file"
                  multiple
                  aria-label={s.attachFile}
                  onChange={(e) => {
                    const target = e.target as HTMLInputElement;
                    upload(target.files);
                    target.value = '';
                  }}
                />
              </span>
            )}
            <label class="pw-sr" for="pw-input">
              {s.composerLabel}
            </label>
            <textarea
              id="pw-input"
              ref={input}
              rows={1}
              placeholder={config.composerPlaceholder || s.composerPlaceholder}
              value={text}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
              onPaste={(e) => {
                if (upload(e.clipboardData?.files)) e.preventDefault();
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
            <button
              type="submit"
              class="pw-icon-btn pw-send"
              aria-label={s.send}
              disabled={!text.trim() || state.busy}
            >
              <SendIcon />
            </button>
          </form>
          {footer && <Markdown className="pw-footer" source={footer} />}
          {dragging && (
            <div class="pw-drop" aria-hidden="true">
              {s.dropFiles}
            </div>
          )}
        </div>
      </div>
    </Texts.Provider>
  );
}
