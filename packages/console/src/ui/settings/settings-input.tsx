import type { FormField } from '../../form.js';
import { Hint } from '../field.js';

/** What a settings input takes: its label, the form field it edits, and how it is typed. */
export interface SettingsInputProps {
  id: string;
  label: string;
  field: FormField<string>;
  /** A sentence under the input, read with it by assistive technology. */
  hint?: string;
  /** `textarea` for a paragraph; the others are `<input>` types. */
  kind?: 'text' | 'email' | 'url' | 'textarea';
  autocomplete?: 'organization' | 'email' | 'url' | 'off';
}

/**
 * A labelled input or text area with a hint, and the message of the Admin API's refusal of its value beside
 * it (marked invalid and read with the input). The browser's own checks are off (the form is `noValidate`):
 * the API is the one judge, so its message is the one shown.
 */
export function SettingsInput({ id, label, field, hint, kind = 'text', autocomplete }: SettingsInputProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = field.error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value: field.value,
    autocomplete,
    'aria-invalid': field.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {kind === 'textarea' ? (
        <textarea
          {...common}
          rows={4}
          class="settings-textarea"
          onInput={(event) => field.onValue(event.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          type={kind as 'text'}
          onInput={(event) => field.onValue(event.currentTarget.value)}
        />
      )}
      {field.error ? (
        <p class="field-error" id={errorId}>
          {field.error}
        </p>
      ) : null}
      <Hint id={hintId}>{hint}</Hint>
    </div>
  );
}
