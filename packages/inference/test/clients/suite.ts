import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type ClientGateway, startClientGateway } from './gateway.js';
import { type HomeTrap, startHomeTrap } from './home-trap.js';
import { scratchDir } from './run.js';
import { writeWorkFiles } from './work-files.js';

/** What every client test file drives its client against; filled in before its first test. */
export interface ClientSuite {
  gateway: ClientGateway;
  trap: HomeTrap;
  /** The client's working directory, with `notes.txt` and `pixel.png`. */
  work: ReturnType<typeof writeWorkFiles>;
  /** A new, empty HOME for one client run (a fresh user). */
  freshHome(): string;
}

/** Registers the file's gateway, home trap and scratch directory, set up before its tests and removed after. */
export function clientSuite(name: string): ClientSuite {
  const suite = {} as ClientSuite;
  let scratch: ReturnType<typeof scratchDir> | undefined;
  beforeAll(async () => {
    scratch = scratchDir(name);
    const root = scratch.path;
    let homes = 0;
    const [gateway, trap] = await Promise.all([startClientGateway(), startHomeTrap()]);
    Object.assign(suite, {
      gateway,
      trap,
      work: writeWorkFiles(join(root, 'work')),
      freshHome: () => {
        const home = join(root, `home-${++homes}`);
        mkdirSync(home);
        return home;
      },
    });
  });
  afterAll(async () => {
    await suite.gateway?.close();
    await suite.trap?.close();
    scratch?.remove();
  });
  return suite;
}
