import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { formatCount } from '../format.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { PASSWORD_LENGTH, PasswordField } from './field.js';
import { Notice } from './notice.js';

const EMPTY = { current: '', next: '', repeat: '' };

/** Changes the password; the server ends every other session of the account. */
export function PasswordForm({ onChanged }: { onChanged(): void }) {
  const { client } = useConsole();
  const [mismatch, setMismatch] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const { pending, error, run } = useAction();
  const form = useForm(EMPTY, async ({ current, next, repeat }) => {
    setSaved(undefined);
    setMismatch(undefined);
    if (next !== repeat) {
      setMismatch(t('account.passwordsDiffer'));
      return;
    }
    const answer = await run(() => client.changePassword({ current, new: next }));
    if (!answer) return;
    form.reset(EMPTY);
    const others = answer.revokedSessions;
    setSaved(
      others === 0
        ? t('account.passwordChangedAlone')
        : formatCount('account.passwordChangedOne', 'account.passwordChangedOther', others),
    );
    onChanged();
  });
  const current = form.field('current');
  const next = form.field('next');
  const repeat = form.field('repeat');

  return (
    <form class="card stack" onSubmit={form.submit}>
      <h2>{t('account.passwordTitle')}</h2>
      <PasswordField id="current-password" label={t('account.currentPassword')} kind="current" {...current} />
      <PasswordField
        id="new-password"
        label={t('account.newPassword')}
        kind="new"
        {...next}
        hint={t('account.newPasswordHint', { n: PASSWORD_LENGTH.min })}
      />
      <PasswordField id="repeat-password" label={t('account.repeatPassword')} kind="repeat" {...repeat} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending}>
          {t('account.changePassword')}
        </button>
      </div>
      <Notice error={mismatch ?? error} done={saved} />
    </form>
  );
}
