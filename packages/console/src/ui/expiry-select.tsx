/** The expiries offered for a new token or key: days from now, or never. */
const EXPIRIES: readonly { days: number; label: string }[] = [
  { days: 0, label: 'Never' },
  { days: 7, label: 'In 7 days' },
  { days: 30, label: 'In 30 days' },
  { days: 90, label: 'In 90 days' },
  { days: 365, label: 'In a year' },
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
      <label for={id}>Expires</label>
      <select id={id} value={String(value)} onChange={(event) => onDays(Number(event.currentTarget.value))}>
        {EXPIRIES.map((expiry) => (
          <option key={expiry.days} value={String(expiry.days)}>
            {expiry.label}
          </option>
        ))}
      </select>
    </div>
  );
}
