import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The names of the system Chromium looked up on PATH, in this order. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

/** Whether `path` is a file this process may run. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium that renders pages by JavaScript: `configured` (PARLEY_CRAWL_CHROMIUM_PATH) when it is set, else
 * the first of {@link CHROMIUM_NAMES} on `PATH`; or a message naming the setting and every path tried.
 * @example findChromium(undefined) // { path: '/usr/bin/chromium' } on Debian with the chromium package
 */
export function findChromium(
  configured: string | undefined,
  pathVariable: string = process.env.PATH ?? '',
): { path: string } | { message: string } {
  const tried =
    configured !== undefined
      ? [configured]
      : pathVariable
          .split(delimiter)
          .filter((dir) => dir !== '')
          .flatMap((dir) => CHROMIUM_NAMES.map((name) => join(dir, name)));
  const found = tried.find(isExecutable);
  if (found) return { path: found };
  return {
    message: `no Chromium to render pages by JavaScript (PARLEY_CRAWL_RENDER_JS=true): ${
      configured !== undefined
        ? 'PARLEY_CRAWL_CHROMIUM_PATH names'
        : `none of ${CHROMIUM_NAMES.join(', ')} on PATH:`
    } ${tried.join(', ') || '(PATH is empty)'}${configured !== undefined ? ', which is not an executable file' : ''}; install Chromium (apt-get install chromium) or set PARLEY_CRAWL_CHROMIUM_PATH`,
  };
}
