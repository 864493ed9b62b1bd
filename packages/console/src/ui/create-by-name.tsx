import { useLocation } from 'preact-iso';
import { announceOn } from '../arrival.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** A card with one name field that creates something, then opens it, saying there what was created. */
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
  /** Creates it from the trimmed name; answers the words to say and the Console address of what was made. */
  create(name: string): Promise<{ words: string; open: string }>;
  onCreated(): void;
}) {
  const { pending, error, run } = useAction();
  const { route } = useLocation();
  const form = useForm({ name: '' }, async ({ name }) => {
    const created = await run(() => create(name.trim()));
    if (created === undefined) return;
    form.reset({ name: '' });
    onCreated();
    announceOn(created.open, created.words);
    route(created.open);
  });
  const name = form.field('name');

  return (
    <form class="card inline-form" onSubmit={form.submit}>
      <Field id={id} label={label} required maxLength={200} {...name} hint={hint} />
      <button type="submit" class="primary" disabled={pending || name.value.trim() === ''}>
        {submitLabel}
      </button>
      <Notice error={error} />
    </form>
  );
}
