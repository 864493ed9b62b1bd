/**
 * How deep JSON values nest, measured without recursion (a value nested a million levels deep must not
 * overflow the stack of whoever checks it).
 */

/** The deepest nesting of `{`/`[` in JSON text, counted without parsing (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/**
 * The path (keys from the top, after `prefix`) to the first object or array nested deeper than `maxDepth`
 * (the value itself is level 1), or undefined when none is.
 */
export function pathTooDeep(value: unknown, maxDepth: number, prefix: string[] = []): string[] | undefined {
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value, path: prefix, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > maxDepth) return item.path;
    for (const [key, child] of Object.entries(item.value)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, path: [...item.path, key], depth: item.depth + 1 });
    }
  }
  return undefined;
}
