import type { ComponentChildren } from 'preact';

/** What a Field takes: its label and value, and the few input attributes the Console uses. */
export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  /** A sentence under the input, read with it by assistive technology. */
  hint?: string;
  type?: 'text' | 'email' | 'password';
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  autocomplete?: 'username' | 'current-password' | 'new-password' | 'name' | 'off';
}

/** A labelled text input (the label is visible and names the input), with an optional hint under it. */
export function Field({ id, label, value, onValue, hint, type = 'text', ...input }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        // Preact types each input type apart (a union TypeScript cannot pick from a variable): one is enough.
        type={type as 'text'}
        value={value}
        required={input.required}
        minLength={input.minLength}
        maxLength={input.maxLength}
        autocomplete={input.autocomplete}
        aria-describedby={hintId}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
      <Hint id={hintId}>{hint}</Hint>
    </div>
  );
}

/** The words under a field, read with it (its input names this id in aria-describedby); nothing when empty. */
export function Hint({ id, children }: { id: string | undefined; children?: ComponentChildren }) {
  return children ? (
    <p class="hint" id={id}>
      {children}
    </p>
  ) : null;
}
