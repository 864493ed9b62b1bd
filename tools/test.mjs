// `npm test` (after its `pretest`, `tsc -b`): Vitest, and beside it the checks that need no test to run (`npm run
// check`: lint, import rules, the tests' type check). The checks are mostly one thread each (tsc, dependency-cruiser)
// and Vitest's files spend much of their time waiting (on Chromium, child processes, sockets), so on a 2-core machine
// running them side by side takes less time than one after the other. Vitest's output is live; the checks' output is
// kept and printed once they end (all of it when they fail), and the run fails when either fails. Arguments go to
// Vitest (`npm test -- --project unit`).
import { spawn } from 'node:child_process';
import { once } from 'node:events';

const checks = spawn('npm', ['run', '--silent', 'check'], { stdio: ['ignore', 'pipe', 'pipe'] });
let checksOutput = '';
checks.stdout.on('data', (chunk) => {
  checksOutput += chunk;
});
checks.stderr.on('data', (chunk) => {
  checksOutput += chunk;
});
const checksEnded = once(checks, 'close').then(([code]) => {
  const passed = code === 0;
  process.stdout.write(
    passed
      ? '\n== npm run check (lint, import rules, tests’ type check): passed\n'
      : `\n== npm run check (lint, import rules, tests’ type check): FAILED (exit ${code})\n${checksOutput}\n`,
  );
  return passed;
});

const vitest = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
const [vitestCode, vitestSignal] = await once(vitest, 'close');
const checksPassed = await checksEnded;
if (!checksPassed) process.stdout.write('\nnpm test failed: npm run check failed (its output is above)\n');
process.exit(vitestCode === 0 && vitestSignal === null && checksPassed ? 0 : 1);
