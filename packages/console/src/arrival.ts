/** Words for the page opened next (e.g. "Bot "Acme" created."), kept until that page takes them. */
let pending: { path: string; words: string } | undefined;

/** Says `words` on the page at `path` when it opens next (one page, once). */
export function announceOn(path: string, words: string): void {
  pending = { path, words };
}

/** The words left for the page at `path`, if any; taken once. */
export function takeAnnouncement(path: string): string | undefined {
  if (pending?.path !== path) return undefined;
  const { words } = pending;
  pending = undefined;
  return words;
}
