/**
 * Worker thread of the HNSW vector index: keeps the graphs and answers the main thread's requests
 * (hnsw-graphs.ts), so no graph insertion, build, load or search runs on the server's event loop.
 */
import { parentPort } from 'node:worker_threads';
import { Graphs, type HnswRequest, type HnswStop } from './hnsw-graphs.js';

const port = parentPort;
if (port) {
  const graphs = new Graphs((reply) => port.postMessage(reply));
  port.on('message', (request: HnswRequest | HnswStop) => {
    if (request.kind !== 'stop') return graphs.handle(request);
    if (request.code !== 0) process.exit(request.code);
    graphs.handle({ kind: 'drop', prefix: '' });
    port.close();
  });
}
