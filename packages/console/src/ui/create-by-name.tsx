import { useState } from 'preact/hooks';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** A card with one name field that creates something, then empties itself and says what was created. */
export function CreateByName({
  id,
  label,
  hint,
  submitLabel,
  create,
  onCreated,
}: {
  id: string;
  /** The field's label, e.g. "Bot name". */
  label: string;
  hint: string;
  /** The button's words, e.g. "Create bot". */
  submitLabel: string;
  /** Creates it from the trimmed name; answers the words to show once created. */
  create(name: string): Promise<string>;
  onCreated(): void;
}) {
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm({ name: '' }, async ({ name }) => {
    setNotice(undefined);
    const created = await run(() => create(name.trim()));
    if (created === undefined) return;
    form.reset({ name: '' });
    onCreated();
    setNotice(created);
  });
  const name = form.field('name');

  return (
    <form class="card inline-form" onSubmit={form.submit}>
      <Field
        id={id}
        label={label}
        required
        maxLength={200}
        value={name.value}
        onValue={name.onValue}
        hint={hint}
      />
      <button type="submit" class="primary" disabled={pending || name.value.trim() === ''}>
        {submitLabel}
      </button>
      <Notice error={error} done={notice} />
    </form>
  );
}
