import { HelpRequest, UsageError } from '../../usage.js';
import { archive } from './archive.js';
import { SELF_HOSTED } from './docker-server.js';
import { type Io, processIo } from './io.js';
import { mock } from './mock.js';
import { perf } from './perf.js';
import { runGroup } from './resource-command.js';
import { RESOURCES } from './resource-table.js';
import { run } from './run/index.js';

const BENCH_USAGE = `Usage: atrium bench <subcommand> … (Bencher's \`bencher\` client)

  run [options] [command…]     run benchmarks and submit the report
  mock                         print mock benchmark results
  up | down | logs             a local bench server
  archive | unarchive          archive a branch, testbed, benchmark or measure
  perf <project>               query or tabulate perf data
  admin …                      operator commands on the server's database
  ${Object.keys(RESOURCES).join(' | ')}
                               list, create, view, update, delete
Every subcommand answers --help with its usage and options. Global options: --host, --key, --token, --timeout,
--attempts, --retry-after, --strict.
`;

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
    case 'help':
    case '--help':
    case '-h':
      throw new HelpRequest(BENCH_USAGE);
    case undefined:
      throw new UsageError("atrium bench needs a subcommand; run 'atrium bench --help'");
    default:
      return runGroup('atrium bench', RESOURCES, args, io);
  }
}
