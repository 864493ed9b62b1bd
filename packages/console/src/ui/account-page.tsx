import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useLoad } from '../hooks.js';
import { CONSOLE_LANGUAGES, loadLanguage, pickConsoleLanguage, t } from '../i18n.js';
import { rememberedLanguage, rememberLanguage } from '../remembered.js';
import { AccessTokens } from './access-tokens.js';
import { NameForm } from './name-form.js';
import { Notice } from './notice.js';
import { PasswordForm } from './password-form.js';
import { SelectField } from './select-field.js';
import { SessionsList } from './sessions-list.js';

/** The Console's language on this browser: the browser's (default) or one chosen, shown at once. */
function LanguageChoice() {
  const [choice, setChoice] = useState(() => rememberedLanguage() ?? '');
  const [error, setError] = useState<string | undefined>(undefined);
  return (
    <div class="card">
      <SelectField
        id="console-language"
        label={t('account.language')}
        value={choice}
        choices={[
          { value: '', label: t('account.languageBrowser') },
          ...Object.entries(CONSOLE_LANGUAGES).map(([value, label]) => ({ value, label })),
        ]}
        onValue={(value) => {
          setChoice(value);
          setError(undefined);
          rememberLanguage(value);
          loadLanguage(pickConsoleLanguage(value, navigator.languages)).catch(() =>
            setError(t('account.languageFailed')),
          );
        }}
      />
      <Notice error={error} />
    </div>
  );
}

/** The signed-in person: name, password, where they are signed in, and their personal access tokens. */
export function AccountPage() {
  const { account, client } = useConsole();
  const sessions = useLoad(['account', 'sessions'], () => client.listSessions().then((r) => r.sessions));
  return (
    <section class="stack">
      <div class="page-head">
        <h1>{t('nav.account')}</h1>
        <p class="muted">{t('account.signedInAs', { email: account.email })}</p>
      </div>
      <LanguageChoice />
      <NameForm />
      <PasswordForm onChanged={sessions.reload} />
      <SessionsList
        sessions={sessions.data}
        loading={sessions.loading}
        error={sessions.error}
        onChanged={sessions.reload}
      />
      <AccessTokens
        id="pat"
        noun="token"
        list={() => client.listPersonalAccessTokens().then((r) => r.pats)}
        create={(input) => client.createPersonalAccessToken(input).then((r) => r.pat)}
        revoke={(token) => client.deletePersonalAccessToken({ id: token.id })}
        mayChange
        queryKey={['account', 'pats']}
      />
    </section>
  );
}
