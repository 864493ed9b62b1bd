/**
 * A `like` pattern that matches `text` anywhere, its own `%`, `_` and `\` taken literally (use it with
 * `escape '\'`).
 * @example sql`lower(name) like ${likeContaining(words.toLowerCase())} escape '\\'`
 */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
