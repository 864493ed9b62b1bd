// The machine and its processes: load average, the memory and the CPU time of a process.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/** One thread's times so far, from `/proc/<pid>/task/<tid>/schedstat`: on a CPU, and runnable but waiting for one. */
export interface ThreadTimes {
  /** Its nice value now (threads that lower their priority show 19). */
  nice: number;
  /** Milliseconds on a CPU. */
  cpuMs: number;
  /** Milliseconds runnable but waiting in a run queue for a CPU (the kernel's run delay). */
  waitMs: number;
}

/**
 * Every live thread of `pid` by thread id, with its CPU and run-queue wait times so far (an empty map without
 * /proc or schedstat; a thread that ends while it is read is left out).
 */
export function threadTimes(pid: number): Map<number, ThreadTimes> {
  const out = new Map<number, ThreadTimes>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
      // Field 19 of stat (the 17th after the closing parenthesis) is the nice value.
      const nice = Number(
        readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16],
      );
      out.set(Number(tid), { nice, cpuMs: Number(onCpu) / 1e6, waitMs: Number(waiting) / 1e6 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Where a window's thread times went, per search: the request thread's, the other normal-priority threads', the lowered ones'. */
export interface ThreadTimesPerSearch {
  request: { cpuMs: number; waitMs: number };
  otherNormal: { cpuMs: number; waitMs: number };
  lowered: { cpuMs: number; waitMs: number };
}

/**
 * The times threads of `pid` spent between two {@link threadTimes} readings, divided by `searches`: the request
 * (main) thread's, those of the other threads at nice 0, and those of threads whose priority is lowered.
 */
export function threadTimesPerSearch(
  pid: number,
  before: Map<number, ThreadTimes>,
  after: Map<number, ThreadTimes>,
  searches: number,
): ThreadTimesPerSearch {
  const sums: ThreadTimesPerSearch = {
    request: { cpuMs: 0, waitMs: 0 },
    otherNormal: { cpuMs: 0, waitMs: 0 },
    lowered: { cpuMs: 0, waitMs: 0 },
  };
  for (const [tid, now] of after) {
    const then = before.get(tid) ?? { nice: now.nice, cpuMs: 0, waitMs: 0 };
    const group = tid === pid ? sums.request : now.nice > 0 ? sums.lowered : sums.otherNormal;
    group.cpuMs += (now.cpuMs - then.cpuMs) / searches;
    group.waitMs += (now.waitMs - then.waitMs) / searches;
  }
  return sums;
}
