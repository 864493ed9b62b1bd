import type { ChatMessage, MessagePayload } from '@parley/protocol';
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { fontStack } from '../config.js';
import type { UiActions } from '../controller.js';
import type { Store, UiState } from '../store.js';
import { renderMarkdown } from './markdown.js';

type Card = {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  actions: { action: string; label: string; value: string }[];
};

function useStore(store: Store): UiState {
  const [state, setState] = useState(store.get());
  useEffect(() => {
    setState(store.get());
    return store.subscribe(() => setState(store.get()));
  }, [store]);
  return state;
}

const Markdown = ({ source, className }: { source: string; className?: string }) => (
  // The HTML is sanitised by DOMPurify in renderMarkdown.
  <div class={className} dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }} />
);

const ChatIcon = () => (
  <svg width="26" height="26" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
  </svg>
);
const CloseIcon = () => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
  >
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
const RestartIcon = () => (
  <svg
    width="18"
    height="18"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
  >
    <path d="M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5" />
  </svg>
);
const SendIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <path d="M3 20l18-8L3 4v6l12 2-12 2z" />
  </svg>
);
const AttachIcon = () => (
  <svg
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
  >
    <path d="M21 12l-8.5 8.5a5 5 0 0 1-7-7L14 5a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 8" />
  </svg>
);

const FileIcon = () => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
  >
    <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9zM14 3v6h6" />
  </svg>
);
const PinIcon = () => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
  >
    <path d="M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12z" />
    <circle cx="12" cy="10" r="2.5" />
  </svg>
);
const ThumbIcon = ({ down }: { down?: boolean }) => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
    class={down ? 'pw-flip' : undefined}
  >
    <path d="M7 10v11H4V10zM7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7" />
  </svg>
);

function linkHref(kind: string, link: string): string {
  if (kind === 'phone' && !/^(tel:|https?:)/i.test(link)) return `tel:${link.replace(/[^0-9+]/g, '')}`;
  if (kind === 'email' && !/^mailto:/i.test(link)) return `mailto:${link}`;
  return link;
}

function CardView({ card, actions }: { card: Card; actions: UiActions }) {
  return (
    <div class="pw-card">
      {card.imageUrl && <img src={card.imageUrl} alt="" loading="lazy" />}
      <div class="pw-card-body">
        <h3>{card.title}</h3>
        {card.subtitle && <p>{card.subtitle}</p>}
        {card.actions.length > 0 && (
          <div class="pw-actions">
            {card.actions.map((a) =>
              a.action === 'url' ? (
                <a class="pw-choice" href={a.value} target="_blank" rel="noopener noreferrer">
                  {a.label}
                </a>
              ) : (
                <button
                  type="button"
                  class="pw-choice"
                  onClick={() =>
                    actions.sendPayload(
                      a.action === 'say'
                        ? { type: 'text', text: a.value || a.label }
                        : { type: 'text', text: a.label, value: a.value },
                    )
                  }
                >
                  {a.label}
                </button>
              ),
            )}
          </div>
        )}
      </div>
    </div>
  );
}

function Dropdown({
  text,
  options,
  actions,
}: {
  text: string;
  options: { label: string; value: string }[];
  actions: UiActions;
}) {
  const [value, setValue] = useState('');
  const id = useRef(`pw-dd-${Math.random().toString(36).slice(2, 8)}`).current;
  return (
    <div>
      {text && <Markdown className="pw-bubble" source={text} />}
      <div class="pw-actions">
        <label class="pw-sr" for={id}>
          Choose an option
        </label>
        <select id={id} value={value} onChange={(e) => setValue((e.target as HTMLSelectElement).value)}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option value={o.value}>{o.label}</option>
          ))}
        </select>
        <button
          type="button"
          class="pw-choice"
          disabled={!value}
          onClick={() => {
            const option = options.find((o) => o.value === value);
            if (option) actions.sendPayload({ type: 'text', text: option.label, value: option.value });
          }}
        >
          Send
        </button>
      </div>
    </div>
  );
}

function Payload({
  payload,
  actions,
  last,
}: {
  payload: MessagePayload;
  actions: UiActions;
  last: boolean;
}): JSX.Element {
  switch (payload.type) {
    case 'text':
      return <Markdown className="pw-bubble" source={payload.text} />;
    case 'markdown':
      return <Markdown className="pw-bubble" source={payload.markdown} />;
    case 'image':
      return (
        <div class="pw-media">
          <img src={payload.imageUrl} alt="Attachment" loading="lazy" />
        </div>
      );
    case 'audio':
      return (
        <div class="pw-media">
          <audio controls src={payload.audioUrl}>
            <track kind="captions" />
            <a href={payload.audioUrl}>Audio</a>
          </audio>
        </div>
      );
    case 'video':
      return (
        <div class="pw-media">
          <video controls src={payload.videoUrl}>
            <track kind="captions" />
            <a href={payload.videoUrl}>Video</a>
          </video>
        </div>
      );
    case 'file':
      return (
        <div class="pw-bubble">
          <a href={payload.fileUrl} target="_blank" rel="noopener noreferrer" download>
            <FileIcon /> {payload.title || 'File'}
          </a>
        </div>
      );
    case 'location': {
      const href = `https://www.openstreetmap.org/?mlat=${payload.latitude}&mlon=${payload.longitude}#map=16/${payload.latitude}/${payload.longitude}`;
      return (
        <div class="pw-bubble">
          <a href={href} target="_blank" rel="noopener noreferrer">
            <PinIcon /> {payload.title || payload.address || `${payload.latitude}, ${payload.longitude}`}
          </a>
          {payload.title && payload.address && <div>{payload.address}</div>}
        </div>
      );
    }
    case 'card':
      return <CardView card={payload} actions={actions} />;
    case 'carousel':
      return (
        <div class="pw-carousel">
          {payload.items.map((card) => (
            <CardView card={card} actions={actions} />
          ))}
        </div>
      );
    case 'choice':
      return (
        <div>
          {payload.text && <Markdown className="pw-bubble" source={payload.text} />}
          {last && (
            <div class="pw-actions">
              {payload.options.map((o) => (
                <button
                  type="button"
                  class="pw-choice"
                  onClick={() => actions.sendPayload({ type: 'text', text: o.label, value: o.value })}
                >
                  {o.label}
                </button>
              ))}
            </div>
          )}
        </div>
      );
    case 'dropdown':
      return last ? (
        <Dropdown text={payload.text} options={payload.options} actions={actions} />
      ) : (
        <Markdown className="pw-bubble" source={payload.text} />
      );
    case 'bloc':
      return (
        <div class="pw-actions">
          {payload.items.map((item) => (
            <Payload payload={item} actions={actions} last={last} />
          ))}
        </div>
      );
    default:
      return <div class="pw-bubble">{JSON.stringify(payload)}</div>;
  }
}

function Message({
  message,
  state,
  actions,
  last,
}: {
  message: ChatMessage;
  state: UiState;
  actions: UiActions;
  last: boolean;
}) {
  const from = message.isBot ? 'bot' : 'user';
  const given = state.feedback[message.id];
  const debug = state.debug[message.id];
  return (
    <div class="pw-msg" data-from={from} data-message-id={message.id} data-type={message.payload.type}>
      <span class="pw-sr">{message.isBot ? `${state.config.botName} said:` : 'You said:'}</span>
      <Payload payload={message.payload} actions={actions} last={last} />
      {message.isBot && state.config.feedbackEnabled && (
        <div class="pw-feedback">
          <button
            type="button"
            aria-label="Helpful"
            aria-pressed={given === 'positive'}
            onClick={() => actions.feedback(message.id, 'positive')}
          >
            <ThumbIcon />
          </button>
          <button
            type="button"
            aria-label="Not helpful"
            aria-pressed={given === 'negative'}
            onClick={() => actions.feedback(message.id, 'negative')}
          >
            <ThumbIcon down />
          </button>
        </div>
      )}
      {debug && state.config.adminKey && (
        <details class="pw-debug">
          <summary>Debug</summary>
          <pre>{JSON.stringify(debug, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}

const LINKS = ['phone', 'email', 'website', 'termsOfService', 'privacyPolicy'] as const;

/** The whole webchat: launcher, window, header, message log, composer, footer. */
export function App({ store, actions }: { store: Store; actions: UiActions }) {
  const state = useStore(store);
  const { config, open, layout } = state;
  const fullscreen = layout === 'fullscreen';
  const shown = open || fullscreen;
  const input = useRef<HTMLTextAreaElement>(null);
  const fab = useRef<HTMLButtonElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const wasOpen = useRef(false);
  const [text, setText] = useState('');

  useEffect(() => {
    if (shown && !wasOpen.current) input.current?.focus();
    if (!shown && wasOpen.current) fab.current?.focus();
    wasOpen.current = shown;
  }, [shown]);

  useLayoutEffect(() => {
    const el = log.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [state.messages, state.streams, state.typing, shown]);

  const submit = () => {
    const value = text.trim();
    if (!value || state.busy) return;
    setText('');
    atBottom.current = true;
    actions.send(value);
  };

  const rootStyle = {
    '--pw-color': config.color,
    '--pw-radius': `${config.radius}rem`,
    '--pw-font': fontStack(config.fontFamily),
  };
  const footer = config.footer === undefined ? 'Powered by Parley' : config.footer;
  const last = state.messages[state.messages.length - 1];

  return (
    <div
      class="pw-root"
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
          aria-label={`${open ? 'Close chat' : `Open chat with ${config.botName}`}${state.unread > 0 ? ` (${state.unread} unread)` : ''}`}
          aria-expanded={open}
          onClick={() => (open ? actions.close() : actions.open())}
        >
          {config.fabImage ? <img src={config.fabImage} alt="" /> : <ChatIcon />}
          {state.unread > 0 && (
            <span class="pw-badge" aria-hidden="true">
              {state.unread > 99 ? '99+' : state.unread}
            </span>
          )}
        </button>
      )}
      <div
        class="pw-window"
        role="dialog"
        aria-modal="false"
        aria-labelledby="pw-title"
        hidden={!shown}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !fullscreen) {
            e.stopPropagation();
            actions.close();
          }
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
                        href={linkHref(k, link.link)}
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
            aria-label="Start a new conversation"
            onClick={() => actions.restart()}
          >
            <RestartIcon />
          </button>
          {!fullscreen && (
            <button type="button" class="pw-icon-btn" aria-label="Close chat" onClick={() => actions.close()}>
              <CloseIcon />
            </button>
          )}
        </div>
        <div
          ref={log}
          class="pw-log"
          role="log"
          aria-live="polite"
          aria-relevant="additions"
          aria-label="Messages"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard (WCAG 2.1.1)
          tabIndex={0}
          onScroll={(e) => {
            const el = e.currentTarget;
            atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          }}
        >
          {state.messages.map((m) => (
            <Message message={m} state={state} actions={actions} last={m === last} />
          ))}
          {Object.entries(state.streams).map(([id, partial]) => (
            <div class="pw-msg" data-from="bot" data-stream-id={id}>
              <Markdown className="pw-bubble" source={partial} />
            </div>
          ))}
          {state.typing && (
            <div class="pw-typing" role="status" aria-label={`${config.botName} is typing`}>
              <span />
              <span />
              <span />
            </div>
          )}
        </div>
        {state.notice && (
          <div class="pw-notice" role="alert">
            {state.notice}
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
                aria-label="Attach a file"
                onChange={(e) => {
                  const target = e.target as HTMLInputElement;
                  const file = target.files?.[0];
                  if (file) actions.upload(file);
                  target.value = '';
                }}
              />
            </span>
          )}
          <label class="pw-sr" for="pw-input">
            Message
          </label>
          <textarea
            id="pw-input"
            ref={input}
            rows={1}
            placeholder={config.composerPlaceholder}
            value={text}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
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
            aria-label="Send"
            disabled={!text.trim() || state.busy}
          >
            <SendIcon />
          </button>
        </form>
        {footer && <Markdown className="pw-footer" source={footer} />}
      </div>
    </div>
  );
}
