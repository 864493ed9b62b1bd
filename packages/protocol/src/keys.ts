/**
 * Names a caller may never give a key of their own (a tag, a metadata or configuration field, a tag filter):
 * assigned to a plain object they reach its prototype (`Object.prototype` itself, through `__proto__` or
 * `constructor.prototype`), and looked up on one they answer inherited members instead of nothing.
 */
export const FORBIDDEN_KEYS: readonly string[] = Object.freeze(['__proto__', 'constructor', 'prototype']);

/** Why a forbidden key is refused, as a field error's message. */
export const FORBIDDEN_KEY_MESSAGE =
  'is a reserved name (__proto__, constructor and prototype are refused as keys)';

/** True for `__proto__`, `constructor` and `prototype`. */
export function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

/**
 * The path (keys from the top, after `prefix`) to the first object key, at any depth, that is a forbidden one,
 * or undefined when there is none. Walks without recursion; reads own keys only (`JSON.parse` makes a
 * `"__proto__"` key an own property, which this finds).
 * @example forbiddenKeyPath({ a: [{ constructor: 1 }] }, ['metadata']) // ['metadata', 'a', '0', 'constructor']
 */
export function forbiddenKeyPath(value: unknown, prefix: readonly string[] = []): string[] | undefined {
  const stack: Array<{ value: unknown; path: readonly string[] }> = [{ value, path: prefix }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (item.value === null || typeof item.value !== 'object') continue;
    const isArray = Array.isArray(item.value);
    for (const key of Object.keys(item.value)) {
      if (!isArray && isForbiddenKey(key)) return [...item.path, key];
      const child = (item.value as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, path: [...item.path, key] });
    }
  }
  return undefined;
}
