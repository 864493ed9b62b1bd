import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { Hint } from './field.js';
import { Notice } from './notice.js';

type Props = {
  id: string;
  /** The field's label, e.g. "Invitation link". */
  label: string;
  value: string;
  /** The copy button's words, e.g. "Copy link". */
  copyLabel: string;
  /** The notice once copied; "Copied." unless told. */
  copiedText?: string;
  /** What the value is called when the browser refuses to copy it ("the link is selected…"), in the Console's words. */
  noun?: string;
  /** A textarea rather than one line (the button goes below it). */
  long?: boolean;
  /** The button below the field rather than beside it. */
  below?: boolean;
  /** Words under the field, read with it by screen readers. */
  hint?: ComponentChildren;
  /** Extra class names on the whole block. */
  class?: string;
};

/** A read-only labelled value with a button that copies it and a notice saying it was copied (or selected). */
export function CopyField({
  id,
  label,
  value,
  copyLabel,
  copiedText = t('action.copied'),
  noun = t('action.copyNounText'),
  long,
  below = long,
  hint,
  class: className,
}: Props) {
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const hintId = hint ? `${id}-hint` : undefined;

  async function copy() {
    setCopied(undefined);
    setFailed(undefined);
    try {
      await navigator.clipboard.writeText(value);
      setCopied(copiedText);
    } catch {
      input.current?.select();
      setFailed(t('action.copyFailed', { noun }));
    }
  }

  const common = { id, ref: input, readOnly: true, value, spellcheck: false, 'aria-describedby': hintId };
  const field = (
    <div class="field">
      <label for={id}>{label}</label>
      {long ? <textarea rows={3} {...common} /> : <input type="text" autocomplete="off" {...common} />}
      <Hint id={hintId}>{hint}</Hint>
    </div>
  );
  const button = (
    <button type="button" onClick={copy}>
      {copyLabel}
    </button>
  );
  return (
    <div class={className ? `stack copy-field ${className}` : 'stack copy-field'}>
      {below ? (
        <>
          {field}
          <div class="actions">{button}</div>
        </>
      ) : (
        <div class="inline-form">
          {field}
          {button}
        </div>
      )}
      <Notice error={failed} done={copied} />
    </div>
  );
}
