import type { TokenInfo } from '@parley/client';
import { formatDateTime } from '../format.js';
import { type MessageKey, t } from '../i18n.js';
import { ConfirmDelete } from './confirm-delete.js';

/** What a list of secrets calls itself: personal access tokens or a bot's access keys. */
export type TokenNoun = 'token' | 'key';

/** The words of a list of secrets, one set a noun. */
export const TOKEN_WORDS = {
  token: {
    title: 'tokens.title',
    intro: 'tokens.intro',
    empty: 'tokens.empty',
    unnamed: 'tokens.unnamed',
    created: 'tokens.created',
    create: 'tokens.create',
    noteHint: 'tokens.noteHint',
    value: 'tokens.value',
    copy: 'tokens.copy',
    createdAt: 'tokens.createdAt',
    neverUsed: 'tokens.neverUsed',
    expired: 'tokens.expired',
  },
  key: {
    title: 'keys.title',
    intro: 'keys.intro',
    empty: 'keys.empty',
    unnamed: 'keys.unnamed',
    created: 'keys.created',
    create: 'keys.create',
    noteHint: 'keys.noteHint',
    value: 'keys.value',
    copy: 'keys.copy',
    createdAt: 'keys.createdAt',
    neverUsed: 'keys.neverUsed',
    expired: 'keys.expired',
  },
} as const satisfies Record<TokenNoun, Record<string, MessageKey>>;

/**
 * One token or key as listed (its note, created, last used, expiry; never its value); with `revoke`, a Revoke
 * button that asks first.
 */
export function TokenRow({
  token,
  noun,
  revoke,
  onRevoked,
}: {
  token: TokenInfo;
  /** "token" or "key", in the words of the row. */
  noun: TokenNoun;
  /** Revokes this token; absent when the signed-in person may not. */
  revoke: (() => Promise<unknown>) | undefined;
  onRevoked(): void;
}) {
  const titleId = `token-${token.id}`;
  const name = token.note || t(TOKEN_WORDS[noun].unnamed);
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();

  return (
    <li class="list-row token-row">
      <div>
        <p class="list-title" id={titleId}>
          {name}
          {expired ? <span class="badge badge-disabled">{t(TOKEN_WORDS[noun].expired)}</span> : null}
        </p>
        <p class="muted">
          {t(TOKEN_WORDS[noun].createdAt, { date: formatDateTime(token.createdAt) })} ·{' '}
          {token.lastUsedAt
            ? t('tokens.lastUsed', { date: formatDateTime(token.lastUsedAt) })
            : t(TOKEN_WORDS[noun].neverUsed)}{' '}
          ·{' '}
          {token.expiresAt
            ? t(expired ? 'tokens.expiredAt' : 'tokens.expires', { date: formatDateTime(token.expiresAt) })
            : t('tokens.noExpiry')}
        </p>
      </div>
      {revoke ? (
        <ConfirmDelete
          askLabel={t('tokens.revoke')}
          askDescribedBy={titleId}
          question={
            <>
              {t('tokens.revokeAsk')}
              <strong>{name}</strong>
              {t('tokens.revokeWhy')}
            </>
          }
          confirmLabel={t('tokens.revokeConfirm')}
          remove={revoke}
          onDeleted={onRevoked}
        />
      ) : null}
    </li>
  );
}
