/** One choice of a SelectField: the value sent, the words shown. */
export interface Choice<V extends string = string> {
  value: V;
  label: string;
}

/** A labelled drop-down list (the label is visible and names it) of `choices`, `value` chosen. */
export function SelectField<V extends string>(props: {
  id: string;
  label: string;
  value: V;
  choices: readonly Choice<V>[];
  onValue(value: V): void;
  /** The wrapper's class (default `field`). */
  class?: string;
}) {
  return (
    <div class={props.class ?? 'field'}>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onValue(e.currentTarget.value as V)}>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
