import type { CreatedToken, TokenInfo } from '@parley/client';
import { useState } from 'preact/hooks';
import { useForm } from '../form.js';
import { useAction, useLoad } from '../hooks.js';
import { t } from '../i18n.js';
import { ExpirySelect, expiryFromDays } from './expiry-select.js';
import { Field } from './field.js';
import { ListState } from './list-state.js';
import { Notice } from './notice.js';
import { SecretValue } from './secret-value.js';
import { TOKEN_WORDS, type TokenNoun, TokenRow } from './token-row.js';

/**
 * A card of secrets of one kind (personal access tokens, a bot's access keys): the list, a form that creates
 * one and shows its value once (until it is revoked), and Revoke per row. Without `mayChange` it only lists.
 */
export function AccessTokens({
  id,
  noun,
  list,
  create,
  revoke,
  mayChange,
  queryKey,
}: {
  /** Prefix of the element ids in the card (unique on the page). */
  id: string;
  /** What the secrets are called in the card, button and field words: "token" or "key". */
  noun: TokenNoun;
  list(): Promise<TokenInfo[]>;
  create(input: { note?: string; expiresAt?: string }): Promise<CreatedToken>;
  revoke(token: TokenInfo): Promise<unknown>;
  mayChange: boolean;
  /** The cache key of the list (see useLoad). */
  queryKey: unknown[];
}) {
  const words = TOKEN_WORDS[noun];
  const tokens = useLoad(queryKey, list);
  const [created, setCreated] = useState<CreatedToken | undefined>(undefined);
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm({ note: '', days: 0 }, async ({ note, days }) => {
    setNotice(undefined);
    setCreated(undefined);
    const expiresAt = expiryFromDays(days);
    const answer = await run(() =>
      create({ ...(note.trim() ? { note: note.trim() } : {}), ...(expiresAt ? { expiresAt } : {}) }),
    );
    if (!answer) return;
    setCreated(answer);
    form.reset({ note: '', days: 0 });
    tokens.reload();
    setNotice(t(words.created, { name: answer.note || t(words.unnamed) }));
  });
  const note = form.field('note');
  const days = form.field('days');

  return (
    <div class="card stack">
      <h2>{t(words.title)}</h2>
      <p class="muted">{t(words.intro)}</p>
      <ListState
        of={tokens}
        loadingWords={t('app.loading')}
        empty={t(words.empty)}
        label={t(words.title)}
        row={(token) => (
          <TokenRow
            key={token.id}
            token={token}
            noun={noun}
            revoke={mayChange ? () => revoke(token) : undefined}
            onRevoked={() => {
              // The value just shown is of no use once revoked: it goes with its notice.
              if (created?.id === token.id) {
                setCreated(undefined);
                setNotice(undefined);
              }
              tokens.reload();
            }}
          />
        )}
      />
      {mayChange ? (
        <form class="stack" onSubmit={form.submit} aria-label={t(words.create)}>
          <div class="token-form">
            <Field
              id={`${id}-note`}
              label={t('tokens.note')}
              maxLength={200}
              {...note}
              hint={t(words.noteHint)}
            />
            <ExpirySelect id={`${id}-expiry`} value={days.value} onDays={days.onValue} />
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={pending}>
              {t(words.create)}
            </button>
          </div>
          <Notice error={error} done={notice} />
        </form>
      ) : null}
      {created ? (
        <SecretValue
          key={created.id}
          id={`${id}-value`}
          label={t(words.value)}
          copyLabel={t(words.copy)}
          value={created.value}
        />
      ) : null}
    </div>
  );
}
