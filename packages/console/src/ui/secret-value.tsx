import { useRef, useState } from 'preact/hooks';
import { Notice } from './notice.js';

/**
 * A secret just created, in a read-only labelled field with a button that copies it; the answer that carries
 * it is the only time the server gives it, so the words say so.
 */
export function SecretValue({
  id,
  label,
  copyLabel,
  value,
}: {
  id: string;
  /** The field's label, e.g. "New token". */
  label: string;
  /** The copy button's words, e.g. "Copy token". */
  copyLabel: string;
  value: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  const hintId = `${id}-hint`;

  async function copy() {
    setCopied(undefined);
    setFailed(undefined);
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      input.current?.select();
      setFailed('This browser did not allow copying: the value is selected, copy it with your keyboard.');
    }
  }

  return (
    <div class="stack secret-value">
      <div class="inline-form">
        <div class="field">
          <label for={id}>{label}</label>
          <input
            id={id}
            type="text"
            readOnly
            value={value}
            ref={input}
            autocomplete="off"
            spellcheck={false}
            aria-describedby={hintId}
          />
          <p class="hint" id={hintId}>
            It is shown only now: copy it and keep it somewhere safe. Parley keeps only a fingerprint of it.
          </p>
        </div>
        <button type="button" onClick={copy}>
          {copyLabel}
        </button>
      </div>
      <Notice error={failed} done={copied} />
    </div>
  );
}
