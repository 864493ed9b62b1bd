import { type MessageKey, t } from '../i18n.js';

/** The expiries offered for a new token or key: days from now, or never. */
const EXPIRIES: readonly { days: number; label: MessageKey }[] = [
  { days: 0, label: 'tokens.never' },
  { days: 7, label: 'tokens.in7' },
  { days: 30, label: 'tokens.in30' },
  { days: 90, label: 'tokens.in90' },
  { days: 365, label: 'tokens.inYear' },
];

/** The `expiresAt` to send for `days` from now (0: none). */
export function expiryFromDays(days: number, now = Date.now()): string | undefined {
  return days > 0 ? new Date(now + days * 86_400_000).toISOString() : undefined;
}

/** A labelled select of when a new token or key expires, as a number of days (0: never). */
export function ExpirySelect({
  id,
  value,
  onDays,
}: {
  id: string;
  value: number;
  onDays(days: number): void;
}) {
  return (
    <div class="field">
      <label for={id}>{t('tokens.expiresLabel')}</label>
      <select id={id} value={String(value)} onChange={(event) => onDays(Number(event.currentTarget.value))}>
        {EXPIRIES.map((expiry) => (
          <option key={expiry.days} value={String(expiry.days)}>
            {t(expiry.label)}
          </option>
        ))}
      </select>
    </div>
  );
}
