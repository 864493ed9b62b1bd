import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { Field, type FieldProps } from './field.js';
import { Notice } from './notice.js';

/** Changes the account's display name (what teammates see in members and audit records). */
export function NameForm() {
  const { account, client, accountChanged } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  return (
    <NameCard
      title={t('account.nameTitle')}
      field={{ id: 'account-name', label: t('account.name'), autocomplete: 'name' }}
      saved={account.displayName}
      submitLabel={t('account.saveName')}
      state={{ pending, error, notice }}
      onSave={async (name) => {
        setNotice(undefined);
        const answer = await run(() => client.updateAccount({ displayName: name }));
        if (!answer) return;
        accountChanged(answer.account);
        setNotice(t('account.nameSaved'));
      }}
    />
  );
}

/**
 * A card that changes one name (an account's, a bot's): required, up to 200 characters, sent trimmed; its
 * button is on only while the name is not blank and not the `saved` one. `state` is the saving's.
 */
export function NameCard(props: {
  title: string;
  field: Pick<FieldProps, 'id' | 'label' | 'autocomplete'>;
  saved: string;
  submitLabel: string;
  state: { pending: boolean; error: string | undefined; notice: string | undefined };
  onSave(name: string): Promise<unknown>;
}) {
  const form = useForm({ name: props.saved }, ({ name }) => props.onSave(name.trim()));
  const name = form.field('name');
  const typed = name.value.trim();
  return (
    <form class="card stack" onSubmit={form.submit}>
      <h2>{props.title}</h2>
      <Field {...props.field} required maxLength={200} {...name} />
      <div class="actions">
        <button
          type="submit"
          class="primary"
          disabled={props.state.pending || typed === '' || typed === props.saved}
        >
          {props.submitLabel}
        </button>
      </div>
      <Notice error={props.state.error} done={props.state.notice} />
    </form>
  );
}
