import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest tests the summary lists. */
const SLOWEST = 10;

/**
 * Prints, after Vitest's own summary, the 10 slowest tests of the run (duration, file, name) and then one plain
 * closing line, `Tests: N passed, N failed, N skipped`, so any CI that reads closing lines (not only Vitest-aware
 * ones) sees the counts.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const timed: Array<{ ms: number; file: string; name: string }> = [];
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
        const ms = test.diagnostic()?.duration;
        if (ms !== undefined) timed.push({ ms, file: module.relativeModuleId, name: test.fullName });
      }
      // A file that failed outside its tests (import error, failing beforeAll) counts as one failure.
      if (module.state() === 'failed' && failedHere === 0) failedHere = 1;
      failed += failedHere;
    }
    process.stdout.write(slowestTests(timed));
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

/** The slowest tests as lines (`  12.3 s  file > test`), longest first; empty when no test ran. */
export function slowestTests(timed: ReadonlyArray<{ ms: number; file: string; name: string }>): string {
  const slowest = [...timed].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
  if (slowest.length === 0) return '';
  const lines = slowest.map(
    ({ ms, file, name }) => `${`${(ms / 1000).toFixed(1)} s`.padStart(8)}  ${file} > ${name}`,
  );
  return `\nSlowest ${slowest.length} tests:\n${lines.join('\n')}\n`;
}
