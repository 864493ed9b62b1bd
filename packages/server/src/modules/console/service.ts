import { join } from 'node:path';
import { builtPackageDir, readBuiltFile } from '../../http/built-files.js';

/** Content types of the files the Console's build writes under dist/assets/. */
const ASSET_TYPES: Record<string, string> = {
  js: 'application/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
};

/** A built asset's name: `console-HASH.js`, `.css` or their `.map`; nothing else (no path, no dot files). */
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(?:js|css)(?:\.map)?$/;

/**
 * The Console page's Content-Security-Policy: its own script and style files only (no inline script or
 * style, no eval), API calls to its own origin, never framed; it frames only its own origin (the webchat
 * designer's live preview is the bot's hosted chat page, `/webchat/{botId}`).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The folder of the built Console (packages/console/dist). */
export function consoleDistDir(): string {
  return builtPackageDir('console');
}

/** A file of the built Console with what serving it needs. */
export interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** Serving the built Console: its one HTML page and its hashed assets. */
export interface ConsoleService {
  /** dist/index.html (every Console address answers it), or undefined when the Console is not built. */
  page(): Promise<ConsoleFile | undefined>;
  /** A file of dist/assets/, or undefined when it is missing or the name is not an asset's. */
  asset(name: string): Promise<ConsoleFile | undefined>;
}

async function readIfThere(path: string, type: string): Promise<ConsoleFile | undefined> {
  const file = await readBuiltFile(path);
  return file && { ...file, type };
}

/**
 * The Console serving service, reading the build from `distDir` (default: the built console package). Files
 * are read on each request (a rebuild is served without a restart); the assets' names change with their content.
 * @example const console = consoleService();
 */
export function consoleService(deps: { distDir?: string } = {}): ConsoleService {
  const dist = deps.distDir ?? consoleDistDir();
  return {
    page: () => readIfThere(join(dist, 'index.html'), 'text/html; charset=utf-8'),
    async asset(name) {
      if (!ASSET_NAME.test(name)) return undefined;
      const extension = name.slice(name.lastIndexOf('.') + 1);
      return readIfThere(join(dist, 'assets', name), ASSET_TYPES[extension] ?? 'application/octet-stream');
    },
  };
}
