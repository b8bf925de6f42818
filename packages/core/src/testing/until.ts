import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `check` holds, checking every 50 ms; answers the milliseconds it took, or fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
  return Date.now() - started;
}
