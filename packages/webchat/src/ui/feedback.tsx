import { useEffect, useRef, useState } from 'preact/hooks';
import type { UiActions } from '../ui-actions.js';
import { CommentForm } from './comment-form.js';
import { ThumbIcon } from './icons.js';
import { useTexts } from './texts.js';

/**
 * Thumbs up/down under a bot message (when `enabled`); a thumbs down asks for a comment, then thanks.
 * `given` is the value already recorded for the message.
 */
export function Feedback({
  messageId,
  enabled,
  given,
  actions,
}: {
  messageId: string;
  enabled: boolean;
  given: 'positive' | 'negative' | undefined;
  actions: UiActions;
}) {
  const s = useTexts();
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState('');
  const [thanked, setThanked] = useState(false);
  const commentBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (commenting) commentBox.current?.focus();
  }, [commenting]);
  const finish = () => {
    setCommenting(false);
    setThanked(true);
  };
  return (
    <>
      {enabled && (
        <div class="pw-feedback">
          <button
            type="button"
            aria-label={s.helpful}
            aria-pressed={given === 'positive'}
            onClick={() => {
              setCommenting(false);
              actions.feedback(messageId, 'positive');
            }}
          >
            <ThumbIcon />
          </button>
          <button
            type="button"
            aria-label={s.notHelpful}
            aria-pressed={given === 'negative'}
            onClick={() => {
              actions.feedback(messageId, 'negative');
              setThanked(false);
              setCommenting(true);
            }}
          >
            <ThumbIcon down />
          </button>
        </div>
      )}
      {commenting && (
        <CommentForm
          id={`pw-comment-${messageId}`}
          boxRef={commentBox}
          comment={comment}
          onComment={setComment}
          onSend={(text) => actions.feedback(messageId, 'negative', text)}
          onDone={finish}
        />
      )}
      {thanked && (
        <p class="pw-thanks" role="status">
          {s.feedbackThanks}
        </p>
      )}
    </>
  );
}
