import type { RefObject } from 'preact';
import { useTexts } from './texts.js';

/** The comment asked for after a thumbs down: Send posts it (when not blank), Skip and Esc close it. */
export function CommentForm({
  id,
  boxRef,
  comment,
  onComment,
  onSend,
  onDone,
}: {
  id: string;
  boxRef: RefObject<HTMLTextAreaElement | null>;
  comment: string;
  onComment: (comment: string) => void;
  onSend: (comment: string) => void;
  onDone: () => void;
}) {
  const s = useTexts();
  return (
    <form
      class="pw-comment"
      onSubmit={(e) => {
        e.preventDefault();
        if (comment.trim()) onSend(comment.trim());
        onDone();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <label for={id}>{s.feedbackComment}</label>
      <textarea
        id={id}
        ref={boxRef}
        rows={2}
        maxLength={2000}
        value={comment}
        onInput={(e) => onComment((e.target as HTMLTextAreaElement).value)}
      />
      <div class="pw-actions">
        <button type="submit" class="pw-choice">
          {s.feedbackSend}
        </button>
        <button type="button" class="pw-choice" onClick={onDone}>
          {s.feedbackSkip}
        </button>
      </div>
    </form>
  );
}
