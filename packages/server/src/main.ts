#!/usr/bin/env node
// The only module with side effects: run the CLI with the real process, and stop gracefully on SIGTERM/SIGINT.
import { holdYoungGeneration } from './young-generation.js';

// `parley serve` keeps V8's young generation at 1 MB semi-spaces (Node's default lets it grow to 16), from
// before the CLI's modules load (hence their dynamic import).
if (process.argv[2] === 'serve') holdYoungGeneration();
const { runCli } = await import('./cli.js');

const code = await runCli(process.argv, {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  onServing: (stop) => {
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stdout.write(`${signal} received: finishing in-flight requests, then stopping\n`);
      const force = setTimeout(() => {
        process.stderr.write('shutdown took longer than 10 s; exiting\n');
        process.exit(1);
      }, 10_000);
      force.unref();
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`error while stopping: ${String(error)}\n`);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  },
});
if (code !== 0) process.exitCode = code;
