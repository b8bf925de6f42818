// CPU time and memory of another process on this machine, read from /proc (Linux only), so every process in a
// benchmark (ours, a peer's, a bare upstream) is measured the same way without running code inside it.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Microseconds of CPU the process has used so far: the sum over its threads of the scheduler's run time
 * (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds, not rounded to clock ticks as `/proc/<pid>/stat` is).
 */
export function cpuMicros(pid: number): number {
  let nanos = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanos += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanos / 1000;
}

/** Microseconds of CPU used so far by every PostgreSQL server process on this machine (comm `postgres`). */
export function postgresCpuMicros(): number {
  let micros = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') micros += cpuMicros(Number(pid));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return micros;
}

/** The process's resident set size in bytes. */
export function rssBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
}
