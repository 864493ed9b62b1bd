import { readFileSync } from 'node:fs';

/** Whether this system shows a thread's own CPU time under /proc/thread-self (Linux). */
export const canReadThreadCpu = process.platform === 'linux';

/** The CPU time (user + system) the calling thread has used, in ms, at the kernel's 10 ms resolution. */
function threadCpuMs(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) start at the 3rd, "state"; utime and stime are the
  // 14th and 15th, in clock ticks (USER_HZ, 100 a second).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) * 10;
}

/**
 * Runs `work` and answers the CPU time it took this thread (`threadMs`) and the whole process, every thread
 * counted (`processMs`). Work done in this thread shows in both; work handed to a worker thread only in the
 * second. Unlike a wall-clock time, neither grows when other processes load the machine. `work`'s error is
 * thrown on.
 */
export async function threadCpu<T>(
  work: () => Promise<T>,
): Promise<{ result: T; threadMs: number; processMs: number }> {
  const thread = threadCpuMs();
  const process0 = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(process0);
  return { result, threadMs: threadCpuMs() - thread, processMs: (used.user + used.system) / 1000 };
}
