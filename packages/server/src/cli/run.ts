import type { CliIo, CommandGroup } from '../cli.js';
import { holdYoungGeneration } from '../young-generation.js';

/**
 * Runs `parley <argv>` with `groups` besides the server's own commands, and answers its exit code (`runCli` of
 * cli.ts). The CLI's modules, the whole server among them, load on the call, not on import.
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  groups: readonly CommandGroup[] = [],
): Promise<number> {
  const cli = await import('../cli.js');
  return await cli.runCli(argv, io, groups);
}

/**
 * The `parley` process: runs the CLI on `process.argv` with the real streams, and stops `serve` gracefully on
 * SIGTERM/SIGINT. The process entries call it: the server's `main.ts` (its own commands) and `@parley/cli`'s
 * (with the remote commands).
 */
export async function runMain(groups: readonly CommandGroup[] = []): Promise<void> {
  // `parley serve` keeps V8's young generation at 1 MB semi-spaces (Node's default lets it grow to 16), from
  // before the CLI's modules load (hence their dynamic import in runCli).
  if (process.argv[2] === 'serve') holdYoungGeneration();
  const code = await runCli(
    process.argv,
    {
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
    },
    groups,
  );
  if (code !== 0) process.exitCode = code;
}
