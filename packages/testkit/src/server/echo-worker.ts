/**
 * A worker thread for the tests of workers/channel.ts: answers `{ id, text }` with `{ id, echo }`, reports
 * `{ note }` (no id) when asked, never answers `hold`, exits with `code` or throws `message` when asked.
 */
import { parentPort } from 'node:worker_threads';

type Request =
  | { id?: number; kind: 'echo'; text: string }
  | { kind: 'note' }
  | { kind: 'hold' }
  | { kind: 'exit'; code: number }
  | { kind: 'throw'; message: string };

const port = parentPort;
if (port === null) throw new Error('echo-worker.ts runs only as a worker thread');
port.on('message', (request: Request) => {
  if (request.kind === 'echo') port.postMessage({ id: request.id, echo: request.text });
  else if (request.kind === 'hold') return;
  else if (request.kind === 'note') port.postMessage({ note: 'by itself' });
  else if (request.kind === 'exit') process.exit(request.code);
  else throw new Error(request.message);
});
