import type { CreateAgentMessageInput } from '@parley/client';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { formatNumber } from '../../format.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { useBotClient } from '../knowledge/file-status.js';
import { Notice } from '../notice.js';
import { TypingSignal } from './typing-signal.js';

type Payload = CreateAgentMessageInput['payload'];
type FilePayload = Extract<Payload, { type: 'file' }>;

/** The most files one reply carries. */
const MAX_FILES = 5;

/** A random segment of a file's key: the attached file is found by its link only. */
const randomSegment = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The payload of a person's reply: their Markdown alone, or a bloc of it and the attached files (each a
 * `file` item with its link, which the webchat shows as a download).
 */
export function replyPayload(markdown: string, files: readonly FilePayload[]): Payload {
  const text: Payload = { type: 'markdown', markdown };
  if (files.length === 0) return text;
  return { type: 'bloc', items: markdown ? [text, ...files] : [...files] };
}

/**
 * The reply box of the desk: Markdown and attachments, sent under the person's name ("Send"). Each file is
 * uploaded through the Files API as the bot's file, not indexed (the bot never answers from it), with the
 * `public_content` policy: its link is permanent and signed for that file alone, so the visitor opens the
 * file attached and nothing else. Replying takes the conversation over when nobody has it. While the
 * conversation is the person's (`mine`), typing in the box shows the visitor "<name> is typing" (TypingSignal:
 * at most every few seconds, stopped at send, blur or after an idle spell).
 */
export function ReplyBox({
  botId,
  conversationId,
  mine,
  onSent,
}: {
  botId: string;
  conversationId: string;
  mine: boolean;
  onSent(): void;
}) {
  const files = useBotClient(botId);
  const typing = useMemo(
    () =>
      mine
        ? new TypingSignal((t) => files.setAgentTyping({ id: botId, conversationId, typing: t }))
        : undefined,
    [files, botId, conversationId, mine],
  );
  useEffect(() => () => typing?.stop(), [typing]);
  const { pending, error, run } = useAction();
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<File[]>([]);
  const [progress, setProgress] = useState('');
  // A new file input after each reply: its chosen files are cleared with the text.
  const [round, setRound] = useState(0);
  const empty = text.trim() === '' && attached.length === 0;

  const upload = async (file: File): Promise<FilePayload> => {
    const stored = await files.uploadFile({
      key: `handoff/${conversationId}/${randomSegment()}/${file.name}`,
      content: file,
      index: false,
      accessPolicies: ['public_content'],
      ...(file.type ? { contentType: file.type } : {}),
      resumable: false,
    });
    return { type: 'file', fileUrl: stored.url, title: file.name };
  };

  const send = async (event: Event) => {
    event.preventDefault();
    if (empty) return;
    typing?.stop();
    const sent = await run(async () => {
      const links: FilePayload[] = [];
      for (const [i, file] of attached.entries()) {
        setProgress(
          t('reply.uploading', {
            name: file.name,
            n: formatNumber(i + 1),
            total: formatNumber(attached.length),
          }),
        );
        links.push(await upload(file));
      }
      setProgress('');
      const payload = replyPayload(text.trim(), links);
      return files.createAgentMessage({ id: botId, conversationId, payload });
    });
    setProgress('');
    if (!sent) return;
    setText('');
    setAttached([]);
    setRound((n) => n + 1);
    onSent();
  };

  return (
    <form class="stack reply-box" onSubmit={send}>
      <div class="field">
        <label for="handoff-reply">{t('reply.label')}</label>
        <textarea
          id="handoff-reply"
          rows={3}
          aria-describedby="handoff-reply-hint"
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value);
            typing?.input();
          }}
          onBlur={() => typing?.stop()}
        />
        <p id="handoff-reply-hint" class="hint">
          {t('reply.hint')}
        </p>
      </div>
      <div class="field">
        <label for="handoff-files">{t('reply.attach')}</label>
        <input
          key={round}
          id="handoff-files"
          type="file"
          multiple
          aria-describedby="handoff-files-hint"
          onChange={(event) => setAttached([...(event.currentTarget.files ?? [])].slice(0, MAX_FILES))}
        />
        <p id="handoff-files-hint" class="hint">
          {t('reply.attachHint', { n: formatNumber(MAX_FILES) })}
        </p>
      </div>
      {progress ? <p role="status">{progress}</p> : null}
      <Notice error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || empty}>
          {t('reply.send')}
        </button>
      </div>
    </form>
  );
}
