import type { RefObject } from 'preact';
import type { UiState } from '../store.js';
import type { UiActions } from '../ui-actions.js';
import { Composer } from './composer.js';
import { Header } from './header.js';
import { useFileDrop } from './hooks/file-drop.js';
import { useStickToBottom } from './hooks/stick-to-bottom.js';
import { Markdown } from './markdown-view.js';
import { MessageList } from './message-list.js';
import { Notice } from './notice.js';
import { useTexts } from './texts.js';
import { UploadProgress } from './upload.js';

/**
 * The chat window, a non-modal dialog (Esc closes it unless full screen): header, message log, upload
 * progress, notice, composer, footer; files may be dropped on it.
 */
export function ChatWindow({
  state,
  actions,
  shown,
  inputRef,
}: {
  state: UiState;
  actions: UiActions;
  shown: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const { config } = state;
  const s = useTexts();
  const fullscreen = state.layout === 'fullscreen';
  const scroll = useStickToBottom(state, shown);
  const upload = (files: FileList | null | undefined) => {
    const list = files ? Array.from(files) : [];
    if (!config.allowFileUpload || list.length === 0) return false;
    scroll.toBottom();
    actions.upload(list);
    return true;
  };
  const drop = useFileDrop(config.allowFileUpload, upload);
  // The button goes while a person is asked for or answering; it comes back when the bot is.
  const waitingOrTalking = state.handoff?.state === 'pending' || state.handoff?.state === 'assigned';
  const footer = config.footer === undefined ? s.poweredBy : config.footer;
  return (
    <div
      class="pw-window"
      role="dialog"
      aria-modal="false"
      aria-labelledby="pw-title"
      hidden={!shown}
      data-dragging={drop.dragging || undefined}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !fullscreen) {
          e.stopPropagation();
          actions.close();
        }
      }}
      {...drop.handlers}
    >
      <Header config={config} fullscreen={fullscreen} actions={actions} />
      <MessageList
        state={state}
        actions={actions}
        scroll={scroll}
        onAsk={(question) => {
          scroll.toBottom();
          actions.send(question);
          // The clicked button goes away with the question sent: focus stays in the log, where the reply comes.
          scroll.log.current?.focus({ preventScroll: true });
        }}
      />
      {state.upload && <UploadProgress upload={state.upload} />}
      {state.notice && <Notice notice={state.notice} />}
      {config.handoffButton && !waitingOrTalking && (
        <button
          type="button"
          class="pw-handoff"
          disabled={state.busy}
          onClick={() => {
            scroll.toBottom();
            actions.requestPerson(s.talkToPerson);
          }}
        >
          {s.talkToPerson}
        </button>
      )}
      <Composer
        config={config}
        busy={state.busy}
        inputRef={inputRef}
        onSend={(text) => {
          scroll.toBottom();
          actions.send(text);
        }}
        onFiles={upload}
      />
      {footer && <Markdown className="pw-footer" source={footer} />}
      {drop.dragging && (
        <div class="pw-drop" aria-hidden="true">
          {s.dropFiles}
        </div>
      )}
    </div>
  );
}
