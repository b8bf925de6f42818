/** A wrong command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

/** `--help` or `-h` asked for a command's usage: printed on stdout, exit code 0. */
export class HelpRequest extends Error {
  override readonly name = 'HelpRequest';
  constructor(readonly text: string) {
    super('help requested');
  }
}

/** `--help` / `-h` among the arguments of a command that parses with node's `parseArgs`. */
export const wantsHelp = (args: readonly string[]) => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

export const HELP = `atrium — inference, provenance and benchmark tracking in one command

Usage:
  atrium serve [--services inference,provenance,bench] [--config FILE] [--data-dir DIR]
  atrium inference make-test-model <out.gguf>
  atrium inference create-account|create-project|list-projects|add-member|add-grant|set-allocation|set-rate|convert|top-up|set-limits|list-resources|requests|approve|reject|create-key|list-keys|revoke-key|usage|announce|outbox … [--json]
  atrium inference --help | atrium inference <subcommand> --help
  atrium bench <run|mock|up|down|logs|archive|unarchive|perf|RESOURCE> …
  atrium provenance serve <archive-or-url>... [--port 5000] [--host H] [--data-dir DIR]
  atrium provenance inspect <archive-or-url>
  atrium provenance make-archive (--nodes N | --shapes a,b,… [--count N]) [--out FILE] [--seed S]
  atrium bench admin user create --name NAME --email EMAIL [--slug SLUG] [--admin]
  atrium bench admin token --email EMAIL [--jwt | --project PROJECT] [--name NAME] [--ttl SECONDS]
  atrium --version
  atrium help

serve      Start the services (all three by default) and keep running until SIGTERM/SIGINT.
  --services   Comma-separated subset of: inference, provenance, bench
  --config     TOML configuration file (default: $ATRIUM_CONFIG, else ./atrium.toml when present)
  --data-dir   Directory for the embedded defaults (default: ./data)

inference make-test-model
           Write the tiny generated GGUF test model (deterministic, ~660 KB) to <out.gguf>.
inference create-account … create-key
           Operator commands on the inference database: accounts, projects, members, grants, allocations,
           node-hour rates, node-hour conversion into credits, credit top-ups, resource limits, service-desk approvals, API keys
           (the secret is printed once; listed and revoked), usage per key, project, model or day, status announcements.
           --json prints JSON.

bench admin user create
           Create a bench user (and their organisation); the first user is a server admin.
bench admin token
           Print a new credential for a user: a user API key (default), an HS256 JWT (--jwt),
           or a project API key (--project). Keys are stored hashed; they are shown only once.

provenance serve
           Serve .aiida archives (opened in place) and/or AiiDA postgres:// databases, each at
           /<name>/api/v4 (name=location to choose the name); the first is also at /api/v4.
provenance inspect
           Print format version, size and row counts (and missing indexes on PostgreSQL).
provenance make-archive
           Write a synthetic main_0001 archive: about N nodes of a relax campaign (--nodes), or N of each
           chosen shape (--shapes workflows,calcjobs,structures,bands,arrays,dicts,logs,comments,groups).

bench      The bench client (Bencher's CLI): run [options] [command…] runs and submits benchmarks;
           mock, up/down/logs (local server), archive/unarchive, perf, and list/create/view/update/delete
           of organization, member, project, branch, testbed, benchmark, measure, threshold, alert, report,
           metric, plot, user, token, server; auth accept <invite>. Global: --host (ATRIUM_BENCH_HOST,
           BENCHER_HOST), --key (ATRIUM_BENCH_KEY, BENCHER_API_KEY), --token, --timeout, --attempts,
           --retry-after, --strict.

Every configuration key can also be set as an environment variable: bench.port -> ATRIUM_BENCH_PORT.
Exit codes: 0 ok, 1 failure, 2 usage or configuration error.
`;
