// Vitest's global setup: bundles the webchat and the Console once from their current sources, before any test
// file runs (so a browser test never runs a stale dist/, and parallel test files never rebuild the same dist/
// under each other's feet).
import { buildWebchat } from './browser.js';
import { buildConsole } from './console.js';

export default function setup(): void {
  buildWebchat();
  buildConsole();
}
