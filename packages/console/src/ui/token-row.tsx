import type { TokenInfo } from '@parley/client';
import { formatDateTime } from '../format.js';
import { ConfirmDelete } from './confirm-delete.js';

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
  noun: string;
  /** Revokes this token; absent when the signed-in person may not. */
  revoke: (() => Promise<unknown>) | undefined;
  onRevoked(): void;
}) {
  const titleId = `token-${token.id}`;
  const name = token.note || `Unnamed ${noun}`;
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();

  return (
    <li class="list-row token-row">
      <div>
        <p class="list-title" id={titleId}>
          {name}
          {expired ? <span class="badge badge-disabled">Expired</span> : null}
        </p>
        <p class="muted">
          Created {formatDateTime(token.createdAt)} ·{' '}
          {token.lastUsedAt ? `last used ${formatDateTime(token.lastUsedAt)}` : 'never used'} ·{' '}
          {token.expiresAt
            ? `${expired ? 'expired' : 'expires'} ${formatDateTime(token.expiresAt)}`
            : 'does not expire'}
        </p>
      </div>
      {revoke ? (
        <ConfirmDelete
          askLabel="Revoke"
          askDescribedBy={titleId}
          question={
            <>
              Revoke <strong>{name}</strong>? Whatever uses it stops working at once.
            </>
          }
          confirmLabel="Yes, revoke"
          remove={revoke}
          onDeleted={onRevoked}
        />
      ) : null}
    </li>
  );
}
