/**
 * A `Content-Disposition` header correct for any file name (RFC 6266 with RFC 8187 `filename*`):
 * an ASCII fallback in `filename` (non-ASCII, quotes, backslashes and controls replaced by `_`) and, when
 * the name is not plain ASCII, the exact UTF-8 name percent-encoded in `filename*`.
 *
 * (The `content-disposition` package was the first choice; its versions resolve differently for the
 * compiler and at run time in this workspace, so this small, tested function stands in.)
 * @example contentDisposition('résumé.pdf', 'attachment') // attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf
 */
export function contentDisposition(filename: string, type: 'inline' | 'attachment'): string {
  const name = filename.replace(/[\r\n]/g, ' ');
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  if (fallback === name) return `${type}; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
