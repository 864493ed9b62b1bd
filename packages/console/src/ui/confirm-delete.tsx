import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { Notice } from './notice.js';

type Props = {
  /** The question, naming what goes and what follows from it. */
  question: ComponentChildren;
  /** The confirming button's words, e.g. "Yes, delete this bot". */
  confirmLabel: string;
  /** Deletes; a failure shows as a notice in words. */
  remove(): Promise<unknown>;
  /** After a successful delete. */
  onDeleted(): void;
  /** The first button's words (e.g. "Delete bot"); without it the question shows at once. */
  askLabel?: string;
  /** The id of what the first button acts on (its description, e.g. the row's title). */
  askDescribedBy?: string;
  /** What Cancel does when there is no first button (e.g. closes the row's form). */
  onCancel?(): void;
  /** Extra class names on the block. */
  class?: string;
};

/** A delete (or revoke) that asks first: a "Delete …" button that turns into the question, "Yes, delete …" and Cancel. */
export function ConfirmDelete({
  question,
  confirmLabel,
  remove,
  onDeleted,
  askLabel,
  askDescribedBy,
  onCancel,
  class: className,
}: Props) {
  const [confirming, setConfirming] = useState(askLabel === undefined);
  const { pending, error, run } = useAction();
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);

  async function confirm() {
    if (await run(remove)) onDeleted();
  }

  return (
    <div class={className ? `stack ${className}` : 'stack'}>
      {confirming ? (
        <>
          <p>{question}</p>
          <div class="actions">
            <button type="button" class="danger" onClick={confirm} disabled={pending}>
              {confirmLabel}
            </button>
            <button
              type="button"
              ref={cancel}
              onClick={askLabel === undefined ? onCancel : () => setConfirming(false)}
              disabled={pending}
            >
              {t('action.cancel')}
            </button>
          </div>
        </>
      ) : (
        <div class="actions">
          <button
            type="button"
            class="danger"
            onClick={() => setConfirming(true)}
            aria-describedby={askDescribedBy}
          >
            {askLabel}
          </button>
        </div>
      )}
      <Notice error={error} />
    </div>
  );
}
