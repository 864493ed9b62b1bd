// How a benchmark runs: its main function, its clean-up on Ctrl-C, pauses.

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * On SIGINT or SIGTERM (once): runs `cleanup`, then exits with 130, so that a stopped benchmark leaves no
 * server process, work folder or database behind.
 */
export function onInterrupt(cleanup: () => Promise<void>): void {
  const onSignal = () => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/** Runs a benchmark's `main`; an error is printed with its stack and the exit code set to 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
