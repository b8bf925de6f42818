// Polls every service's /healthz while the corpus runs, from a child process (so the runner's own work on big
// bodies does not delay it): an answer over 1 s, or none, means a request stalled the process.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { send } from './send.js';

const EVERY_MS = 250;
const SLOW_MS = 1000;

interface Slow {
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

/** Starts the prober; `running` names the case under way at a given time, to say which one stalled. */
export function startProber(services: Services, running: (at: number) => string) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ATRIUM_FUZZ_PROBE: JSON.stringify(services) },
  });
  const failures: string[] = [];
  const done = new Promise<void>((resolve) => {
    child.on('message', (message: Slow | 'done') => {
      if (message === 'done') resolve();
      else failures.push(`${message.name} /healthz: ${message.text} during ${running(message.at)}`);
    });
    child.on('exit', () => resolve());
  });
  return {
    stop: async () => {
      child.send('stop');
      await done;
      return failures;
    },
  };
}
