// Polls every service's /healthz while the corpus runs, from a child process (so the runner's own work on big
// bodies does not delay it): an answer over 1 s, or none, means a request stalled the process.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { send } from './send.js';

const EVERY_MS = 250;
const SLOW_MS = 1000;

export interface Slow {
  name: string;
  at: number;
  text: string;
}
type Services = { name: string; origin: string }[];

async function probe(services: Services): Promise<void> {
  let stopped = false;
  process.on('message', () => {
    stopped = true;
  });
  const report = (message: Slow) => process.send?.(message);
  await Promise.all(
    services.map(async ({ name, origin }) => {
      while (!stopped) {
        const at = Date.now();
        try {
          const answer = await send(origin, { method: 'GET', path: '/healthz' });
          if (answer.ms > SLOW_MS || answer.status !== 200) {
            report({ name, at, text: `${answer.status} in ${Math.round(answer.ms)} ms` });
          }
        } catch (error) {
          report({ name, at, text: `no answer (${(error as Error).message})` });
        }
        await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
      }
    }),
  );
  process.send?.('done', () => process.exit(0));
}

const role = process.env.ATRIUM_FUZZ_PROBE;
if (role) await probe(JSON.parse(role) as Services);

/** Starts the prober; `stop` returns every slow or missing answer it saw. */
export function startProber(services: Services) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ATRIUM_FUZZ_PROBE: JSON.stringify(services) },
  });
  const slow: Slow[] = [];
  const done = new Promise<void>((resolve) => {
    child.on('message', (message: Slow | 'done') => {
      if (message === 'done') resolve();
      else slow.push(message);
    });
    child.on('exit', () => resolve());
  });
  return {
    stop: async () => {
      child.send('stop');
      await done;
      return slow;
    },
  };
}
