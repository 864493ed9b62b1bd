import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import type { ResolvedConfiguration } from '../config.js';
import { AttachButton } from './attach-button.js';
import { SendIcon } from './icons.js';
import { useTexts } from './texts.js';

/**
 * The composer: Enter sends (Shift+Enter breaks the line), pasted or attached files upload. Nothing is sent
 * while `busy`.
 */
export function Composer({
  config,
  busy,
  inputRef,
  onSend,
  onFiles,
}: {
  config: ResolvedConfiguration;
  busy: boolean;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  onSend: (text: string) => void;
  /** Answers whether the files were taken (then the browser's default is prevented). */
  onFiles: (files: FileList | null | undefined) => boolean;
}) {
  const s = useTexts();
  const [text, setText] = useState('');
  const submit = () => {
    const value = text.trim();
    if (!value || busy) return;
    setText('');
    onSend(value);
  };
  return (
    <form
      class="pw-composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {config.allowFileUpload && <AttachButton onFiles={onFiles} />}
      <label class="pw-sr" for="pw-input">
        {s.composerLabel}
      </label>
      <textarea
        id="pw-input"
        ref={inputRef}
        rows={1}
        placeholder={config.composerPlaceholder || s.composerPlaceholder}
        value={text}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        onPaste={(e) => {
          if (onFiles(e.clipboardData?.files)) e.preventDefault();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <button type="submit" class="pw-icon-btn pw-send" aria-label={s.send} disabled={!text.trim() || busy}>
        <SendIcon />
      </button>
    </form>
  );
}
