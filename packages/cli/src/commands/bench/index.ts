import { UsageError } from '../../usage.js';
import { archive } from './archive.js';
import { SELF_HOSTED } from './docker-server.js';
import { type Io, processIo } from './io.js';
import { mock } from './mock.js';
import { perf } from './perf.js';
import { runGroup } from './resource-command.js';
import { RESOURCES } from './resource-table.js';
import { run } from './run/index.js';

/** `atrium bench <subcommand> …`: the command-line client of the bench service (Bencher's `bencher`). */
export async function bench(args: readonly string[], io: Io = processIo): Promise<void> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'run':
      return run(rest, io);
    case 'mock':
      return mock(rest, io);
    case 'archive':
    case 'unarchive':
      return archive(subcommand === 'archive', rest, io);
    case 'perf':
      return perf(rest, io);
    case 'up':
    case 'down':
    case 'logs':
      return SELF_HOSTED[subcommand](rest, io);
    case 'admin':
      // Loaded on demand: it opens the server's database and would slow every other subcommand's start.
      return (await import('../bench-admin.js')).benchAdmin(['admin', ...rest]);
    case 'org':
      return runGroup('bench organization', RESOURCES, ['organization', ...rest], io);
    case undefined:
      throw new UsageError("atrium bench needs a subcommand; run 'atrium help'");
    default:
      return runGroup('atrium bench', RESOURCES, args, io);
  }
}
