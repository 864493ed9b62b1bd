import { ApiError } from '@parley/client';

// Ajv's words for a union's branches ("must be equal to constant", "must match a schema in anyOf") say less
// than the branch that names the problem (e.g. `must match format "email"`): kept only when alone.
const VAGUE = /^must (be equal to constant|match a schema in anyOf|be equal to one of the allowed values)$/;

/**
 * The Admin API's validation messages of a refused request (`metadata.errors: [{field, message}]`), by the
 * top-level field they name, for the fields in `names`; undefined when `failure` is not such a refusal or
 * names none of them (then it is shown as the form's error).
 */
export function apiFieldErrors<K extends string>(
  failure: unknown,
  names: readonly K[],
): Partial<Record<K, string>> | undefined {
  if (!(failure instanceof ApiError) || failure.status !== 400) return undefined;
  const list = failure.metadata?.errors;
  if (!Array.isArray(list)) return undefined;
  const found = new Map<K, string[]>();
  for (const entry of list as Array<{ field?: unknown; message?: unknown }>) {
    const name = String(entry.field ?? '').split('.')[0] as K;
    if (!names.includes(name) || typeof entry.message !== 'string') continue;
    found.set(name, [...(found.get(name) ?? []), entry.message]);
  }
  if (found.size === 0) return undefined;
  const answer: Partial<Record<K, string>> = {};
  for (const [name, messages] of found) {
    const clear = messages.filter((m) => !VAGUE.test(m));
    answer[name] = [...new Set(clear.length > 0 ? clear : messages)].join('; ');
  }
  return answer;
}
