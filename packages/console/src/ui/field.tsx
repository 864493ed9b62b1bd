import type { ComponentChildren } from 'preact';

/**
 * What a Field takes: its label and value (a form field spreads in as `{...form.field('name')}`, with the
 * message of its refusal), and the few input attributes the Console uses.
 */
export interface FieldProps {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  /** Why the value was refused (a check or the API), shown beside the input and read with it. */
  error?: string | undefined;
  /** A sentence under the input, read with it by assistive technology. */
  hint?: string;
  /** `textarea` for a paragraph (`rows` high); the others are `<input>` types. */
  type?: 'text' | 'email' | 'password' | 'url' | 'search' | 'date' | 'number' | 'textarea';
  rows?: number;
  /** An example of a value, shown while the input is empty (never instead of the label). */
  placeholder?: string;
  /** More classes of the wrapper (`field` always). */
  class?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  /** The bounds of a `number` input. */
  min?: number;
  max?: number;
  autocomplete?:
    | 'username'
    | 'current-password'
    | 'new-password'
    | 'name'
    | 'organization'
    | 'email'
    | 'url'
    | 'off';
}

/**
 * A labelled input or text area (the label is visible and names it), with an optional hint under it and the
 * message of its refusal beside it (marked invalid, read with the input).
 */
export function Field({
  id,
  label,
  value,
  onValue,
  error,
  hint,
  type = 'text',
  rows = 4,
  class: className,
  ...input
}: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const common = {
    id,
    value,
    required: input.required,
    minLength: input.minLength,
    maxLength: input.maxLength,
    min: input.min,
    max: input.max,
    autocomplete: input.autocomplete,
    placeholder: input.placeholder,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': [errorId, hintId].filter(Boolean).join(' ') || undefined,
    onInput: (event: { currentTarget: { value: string } }) => onValue(event.currentTarget.value),
  };
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={id}>{label}</label>
      {type === 'textarea' ? (
        <textarea {...common} rows={rows} />
      ) : (
        // Preact types each input type apart (a union TypeScript cannot pick from a variable): one is enough.
        <input {...common} type={type as 'text'} />
      )}
      {error ? (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
      <Hint id={hintId}>{hint}</Hint>
    </div>
  );
}

/** What the service takes as a new password (the protocol's `Password`): 12 to 256 characters. */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/**
 * A required password input: the `current` one (signing in, or proving it before a change), a `new` one (held to
 * what the service takes), or the new one typed again (`repeat`). The browser's password manager tells them apart.
 */
export function PasswordField({
  kind,
  ...props
}: Omit<FieldProps, 'type' | 'required' | 'autocomplete' | 'minLength' | 'maxLength'> & {
  kind: 'current' | 'new' | 'repeat';
}) {
  const limits = kind === 'new' ? { minLength: PASSWORD_LENGTH.min, maxLength: PASSWORD_LENGTH.max } : {};
  const autocomplete = kind === 'current' ? 'current-password' : 'new-password';
  return <Field {...props} type="password" autocomplete={autocomplete} required {...limits} />;
}

/**
 * A checkbox with its words after it, the whole line clickable (`toggle`). `children` come after the words (e.g.
 * a visually hidden name of what it toggles, where several stand on one page).
 */
export function Toggle(props: {
  label: string;
  value: boolean;
  onValue(value: boolean): void;
  disabled?: boolean;
  children?: ComponentChildren;
}) {
  return (
    <label class="toggle">
      <input
        type="checkbox"
        checked={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onValue(event.currentTarget.checked)}
      />
      {props.label}
      {props.children}
    </label>
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
