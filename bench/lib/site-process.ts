import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The test site served by a child process (test-site-child.ts): its base URL, and a way to stop it. */
export interface SiteProcess {
  base: string;
  stop(): Promise<void>;
}

/**
 * Starts the crawl tests' site of `pages` pages in a process of its own and resolves with its base URL.
 * @throws when the process exits or prints no URL within 30 s
 */
export async function startSiteProcess(pages: number): Promise<SiteProcess> {
  const script = fileURLToPath(new URL('./test-site-child.js', import.meta.url));
  const child = spawn(process.execPath, [script, '--pages', String(pages)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the test site process printed no URL in 30 s')), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = /^(http:\/\/\S+)\n/m.exec(out);
      if (line) {
        clearTimeout(timer);
        resolve(line[1] as string);
      }
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`the test site process exited (${String(code)}) before printing its URL`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    base,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
