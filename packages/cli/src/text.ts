import { FORBIDDEN_KEY_MESSAGE, isForbiddenKey } from '@parley/protocol';
import { InvalidArgumentError } from 'commander';

/** Collects `--tags k=v` (repeatable, or comma-separated) into one record. */
export function collectTags(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const tags = { ...previous };
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError(`"${pair}" is not key=value`);
    const key = pair.slice(0, at).trim();
    if (isForbiddenKey(key)) throw new InvalidArgumentError(`the tag "${key}" ${FORBIDDEN_KEY_MESSAGE}`);
    tags[key] = pair.slice(at + 1).trim();
  }
  return tags;
}

/** A table of rows as aligned columns (for lists people read; `--json` is for scripts). */
export function columns(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map(
      (r) =>
        `${r
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}
