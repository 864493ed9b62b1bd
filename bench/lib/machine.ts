// The machine and its processes: load average and the memory of a process.
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
