/** A wrong command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

export const HELP = `atrium — inference, provenance and benchmark tracking in one command

Usage:
  atrium serve [--services inference,provenance,bench] [--config FILE] [--data-dir DIR]
  atrium inference make-test-model <out.gguf>
  atrium provenance serve <archive-or-url>... [--port 5000] [--host H] [--data-dir DIR]
  atrium provenance inspect <archive-or-url>
  atrium provenance make-archive --nodes N [--out FILE] [--seed S]
  atrium --version
  atrium help

serve      Start the services (all three by default) and keep running until SIGTERM/SIGINT.
  --services   Comma-separated subset of: inference, provenance, bench
  --config     TOML configuration file (default: $ATRIUM_CONFIG, else ./atrium.toml when present)
  --data-dir   Directory for the embedded defaults (default: ./data)

inference make-test-model
           Write the tiny generated GGUF test model (deterministic, ~660 KB) to <out.gguf>.

provenance serve
           Serve .aiida archives (opened in place) and/or AiiDA postgres:// databases, each at
           /<name>/api/v4 (name=location to choose the name); the first is also at /api/v4.
provenance inspect
           Print format version, size and row counts (and missing indexes on PostgreSQL).
provenance make-archive
           Write a synthetic main_0001 archive of about N nodes (workflows, calculations, files).

Every configuration key can also be set as an environment variable: bench.port -> ATRIUM_BENCH_PORT.
Exit codes: 0 ok, 1 failure, 2 usage or configuration error.
`;
