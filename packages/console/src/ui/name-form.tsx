import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Changes the account's display name (what teammates see in members and audit records). */
export function NameForm() {
  const { account, client, accountChanged } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm({ name: account.displayName }, async ({ name }) => {
    setNotice(undefined);
    const answer = await run(() => client.updateAccount({ displayName: name.trim() }));
    if (!answer) return;
    accountChanged(answer.account);
    setNotice(t('account.nameSaved'));
  });
  const name = form.field('name');

  return (
    <form class="card stack" onSubmit={form.submit}>
      <h2>{t('account.nameTitle')}</h2>
      <Field
        id="account-name"
        label={t('account.name')}
        required
        maxLength={200}
        autocomplete="name"
        {...name}
      />
      <div class="actions">
        <button
          type="submit"
          class="primary"
          disabled={pending || name.value.trim() === '' || name.value.trim() === account.displayName}
        >
          {t('account.saveName')}
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
