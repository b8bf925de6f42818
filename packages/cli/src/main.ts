import { HELP, HelpRequest, UsageError } from './usage.js';
import { ATRIUM_VERSION } from './version.js';

// Commands are imported when chosen: loading every service costs about a second per call.
async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return (await import('./commands/serve.js')).serve(rest);
    case 'inference':
      return (await import('./commands/inference.js')).inference(rest);
    case 'bench':
      return (await import('./commands/bench/index.js')).bench(rest);
    case 'provenance':
      return (await import('./commands/provenance.js')).provenance(rest);
    case '--version':
    case '-v':
    case 'version':
      process.stdout.write(`atrium ${ATRIUM_VERSION}\n`);
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return;
    default:
      throw new UsageError(`unknown command '${command}'; run 'atrium help'`);
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof HelpRequest) {
    process.stdout.write(error.text.endsWith('\n') ? error.text : `${error.text}\n`);
    return;
  }
  const isArgError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  // UsageError and core's ConfigError both carry exit code 2.
  const isUsage = (error as { exitCode?: number }).exitCode === 2;
  if (error instanceof UsageError || isUsage || isArgError) {
    process.stderr.write(`atrium: ${(error as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(`atrium: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
