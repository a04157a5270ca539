// CPU time per thread of a running process, from /proc/<pid>/task/*/stat (utime + stime). The main thread is the
// task whose tid is the pid: what it spends is the serial part of a cold index; every other thread (the parse
// workers, V8's GC helpers, libuv's pool) runs beside it, so a cold index on N cores takes about
// serial + parallel / N once the cores are free.
import fs from 'node:fs';

export interface ThreadCpu {
  /** CPU ms of the main thread (tid == pid). */
  mainMs: number;
  /** CPU ms of every other thread together. */
  otherMs: number;
  /** CPU ms of each other thread, largest first. */
  threadsMs: number[];
}

/** Kernel clock ticks per second (USER_HZ); 100 on every Linux the project runs on. */
const TICK_MS = 10;

export function threadCpu(pid: number): ThreadCpu {
  const dir = `/proc/${pid}/task`;
  let mainMs = 0;
  const threadsMs: number[] = [];
  for (const tid of fs.readdirSync(dir)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`${dir}/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    // Fields after the parenthesised name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    if (Number(tid) === pid) mainMs = ms;
    else threadsMs.push(ms);
  }
  threadsMs.sort((a, b) => b - a);
  return { mainMs, otherMs: threadsMs.reduce((a, b) => a + b, 0), threadsMs };
}

/** Cold time on `cores` free cores, projected from one run's CPU: the serial part plus the rest shared out. */
export const projectedMs = (cpu: ThreadCpu, cores: number): number => cpu.mainMs + cpu.otherMs / cores;
