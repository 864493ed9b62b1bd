import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runParley } from '../../../cli/src/commands.js';
import type { CommandIo } from '../../../server/src/cli/context.js';
import type { CliIo } from '../../../server/src/cli.js';
import { freePort } from '../shared/ports.js';
import { sectionedDocx, sectionedPdf } from '../shared/sectioned.js';
import { createTestApp, type TestAppOptions } from './harness.js';

export { freePort };

/** What one CLI run printed, and its exit code. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `parley <args>` in-process with this environment (no terminal unless given: plain lines). */
export async function parley(
  args: string[],
  env: Record<string, string | undefined>,
  terminal?: NodeJS.WriteStream,
): Promise<CliRun> {
  let out = '';
  let err = '';
  const io: CliIo & CommandIo = {
    env,
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    terminal,
  };
  const code = await runParley(['node', 'parley', ...args], io);
  return { code, out, err };
}

/**
 * The real app in-process, listening on 127.0.0.1 with indexing workers, and the environment a remote
 * command needs (`PARLEY_API_URL`, `PARLEY_TOKEN`, `PARLEY_BOT_ID`). `publicUrl` makes the URLs the server
 * hands out point elsewhere (a proxy in front of it).
 */
export async function listeningApp(options: TestAppOptions & { port?: number; publicUrl?: string } = {}) {
  const port = options.port ?? (await freePort());
  const apiUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    workers: true,
    ...options,
    env: { PARLEY_PUBLIC_URL: options.publicUrl ?? apiUrl, ...options.env },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const env = { PARLEY_API_URL: apiUrl, PARLEY_TOKEN: t.owner.token, PARLEY_BOT_ID: t.botId };
  return { ...t, apiUrl, env };
}

/**
 * A proxy on `port` in front of `target` that answers `fault(method, url, n)` instead of forwarding when it
 * returns a status (or 'reset' to drop the connection); `n` counts the requests with that method and path.
 */
export async function faultyProxy(
  port: number,
  target: string,
  fault: (method: string, path: string, n: number) => number | 'reset' | undefined,
) {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', target).pathname;
    const id = `${req.method} ${path}`;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    const injected = fault(req.method ?? 'GET', path, n);
    if (injected === 'reset') {
      req.socket.destroy();
      return;
    }
    if (injected !== undefined) {
      req.resume();
      res.writeHead(injected, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'err_proxy',
          code: injected,
          type: 'Internal',
          message: 'injected by the test proxy',
        }),
      );
      return;
    }
    const upstream = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    /** Requests seen per `METHOD /path`. */
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A generated document of a folder: its path under the folder and a word found in it only. */
export interface GeneratedDocument {
  name: string;
  word: string;
}

/**
 * Writes `count` documents of each kind (PDF with pdf-lib, DOCX with docx, Markdown) under `dir`, the
 * Markdown ones in `notes/`; each holds a word of its own (`quokka3pdf`, …) for search.
 */
export async function writeDocuments(dir: string, count = 2): Promise<GeneratedDocument[]> {
  await mkdir(join(dir, 'notes'), { recursive: true });
  const made: GeneratedDocument[] = [];
  for (let i = 1; i <= count; i += 1) {
    const pdfWord = `quokka${i}pdf`;
    const doc = (word: string, kind: string) => ({
      title: `${kind} guide ${i}`,
      parts: [
        { heading: 'Opening hours', paragraphs: [`The ${word} office opens at nine and closes at five.`] },
        { heading: 'Parking', paragraphs: [`Visitors of the ${kind} site park behind building ${i}.`] },
      ],
    });
    await writeFile(join(dir, `guide-${i}.pdf`), await sectionedPdf(doc(pdfWord, 'PDF')));
    made.push({ name: `guide-${i}.pdf`, word: pdfWord });
    const docxWord = `wombat${i}docx`;
    await writeFile(join(dir, `policy-${i}.docx`), await sectionedDocx(doc(docxWord, 'Word')));
    made.push({ name: `policy-${i}.docx`, word: docxWord });
    const mdWord = `numbat${i}md`;
    await writeFile(
      join(dir, 'notes', `note-${i}.md`),
      `# Note ${i}\n\nThe ${mdWord} team meets on Mondays.\n\n## Lunch\n\nLunch is at noon.\n`,
    );
    made.push({ name: `notes/note-${i}.md`, word: mdWord });
  }
  return made;
}

/** A terminal of `columns` × `rows` that keeps what is drawn on it (ANSI codes and all) in `text`. */
export function fakeTerminal(columns = 140, rows = 30): NodeJS.WriteStream & { text: string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { text: string };
  stream.text = '';
  Object.assign(stream, { isTTY: true, columns, rows });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stream.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return write(chunk, ...rest);
  }) as typeof stream.write;
  stream.resume();
  return stream;
}
