// CPU time of workerd processes, as Linux counts it: the nanoseconds a thread has run, from
// /proc/<pid>/task/<tid>/schedstat. Not wall-clock, so a busy shared machine slows the count of
// nothing but the work itself; used for start-up (startupCpu.ts) and CPU per call (loadTest.ts).
import { readdir, readFile } from 'node:fs/promises';

/** Whether this machine counts thread CPU time where the probe reads it. */
export const canCountCpu = async (): Promise<boolean> => {
  try {
    return Number((await readFile('/proc/self/schedstat', 'utf8')).split(' ')[0]) > 0;
  } catch {
    return false;
  }
};

/** Nanoseconds the main thread of process `pid` has run so far: where workerd runs every isolate's JavaScript. */
export const mainThreadCpuNs = async (pid: number): Promise<number> =>
  Number((await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')).split(' ')[0]);

/** The workerd processes this Node process started. */
export const workerdChildren = async (): Promise<Set<number>> => {
  const found = new Set<number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm.startsWith('workerd') && ppid === process.pid) found.add(Number(entry));
    } catch {
      // The process ended while listing.
    }
  }
  return found;
};
