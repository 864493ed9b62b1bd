/**
 * A bot setting kept as a JSON object in one column (its replies, its handoff settings): the object's fields,
 * or none when the column is empty, unreadable or holds something other than an object.
 */
export function storedObject(stored: string | null | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored ?? '{}');
  } catch {
    return {};
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}
