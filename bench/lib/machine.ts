// The machine and its processes: load average, the memory and the CPU time of a process.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** The 1, 5 and 15 minute load averages, two decimals each: `0.52 0.61 0.70`. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/**
 * A memory field of `/proc/<pid>/status` in bytes: `VmRSS` (resident now) or `VmHWM` (its peak).
 * @returns undefined where /proc is absent or the process is gone
 */
export function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = status.match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** The resident memory of `pid` in bytes as `ps -o rss=` reports it (for systems without /proc). */
export function psRss(pid: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const ps = spawn('ps', ['-o', 'rss=', '-p', String(pid)], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    ps.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
    });
    ps.once('error', () => resolve(undefined));
    ps.once('close', () => {
      const kb = Number(out.trim());
      resolve(out.trim() && Number.isFinite(kb) ? kb * 1024 : undefined);
    });
  });
}

/** The resident memory of `pid` in bytes: from /proc, else from `ps`. */
export async function residentMemory(pid: number): Promise<number | undefined> {
  return procMemory(pid, 'VmRSS') ?? (await psRss(pid));
}

/**
 * CPU seconds (user + system, every thread, ended ones too) `pid` has used so far, from /proc (NaN without
 * /proc); `file` reads another stat file of the same layout (one thread's).
 */
export function cpuSeconds(pid: number, file = `/proc/${pid}/stat`): number {
  try {
    // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user + system) the main thread of `pid` (its thread id is the process's) has used; NaN without /proc. */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSeconds(pid, `/proc/${pid}/task/${pid}/stat`);
}
