import type { TokenInfo } from '@parley/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDateTime } from '../format.js';
import { useAction } from '../hooks.js';
import { Notice } from './notice.js';

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
  const [confirming, setConfirming] = useState(false);
  const { pending, error, run } = useAction();
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = `token-${token.id}`;
  const name = token.note || `Unnamed ${noun}`;
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();

  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);

  async function confirm() {
    if (!revoke) return;
    const answer = await run(revoke);
    if (answer !== undefined) onRevoked();
  }

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
        confirming ? (
          <div class="actions">
            <span>
              Revoke <strong>{name}</strong>? Whatever uses it stops working at once.
            </span>
            <button type="button" class="danger" onClick={confirm} disabled={pending}>
              Yes, revoke
            </button>
            <button type="button" ref={cancel} onClick={() => setConfirming(false)} disabled={pending}>
              Cancel
            </button>
          </div>
        ) : (
          <button type="button" class="danger" onClick={() => setConfirming(true)} aria-describedby={titleId}>
            Revoke
          </button>
        )
      ) : null}
      <Notice error={error} />
    </li>
  );
}
