import { createHash } from 'node:crypto';
import type { BuiltFile } from '../../http/built-files.js';

/** Parley's icon: a speech bubble in the Console's accent colour, 64 × 64, as SVG (no CDN, no inline script). */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b5fcc"/><path d="M16 18h32a4 4 0 0 1 4 4v18a4 4 0 0 1-4 4H30l-10 8v-8h-4a4 4 0 0 1-4-4V22a4 4 0 0 1 4-4z" fill="#fff"/><circle cx="24" cy="31" r="3" fill="#0b5fcc"/><circle cx="32" cy="31" r="3" fill="#0b5fcc"/><circle cx="40" cy="31" r="3" fill="#0b5fcc"/></svg>
`;

/** Its content type. */
export const FAVICON_TYPE = 'image/svg+xml';

/** A day: the icon rarely changes and has no hashed name. */
export const FAVICON_MAX_AGE = 86_400;

let built: BuiltFile | undefined;

/** The icon the Console and the hosted webchat page name (`/favicon.svg`), also answered for `/favicon.ico`. */
export function favicon(): BuiltFile {
  if (!built) {
    const body = Buffer.from(FAVICON_SVG);
    built = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
  return built;
}
