import { ConfigError } from '@atrium/core';
import { inference } from './commands/inference.js';
import { provenance } from './commands/provenance.js';
import { serve } from './commands/serve.js';
import { HELP, UsageError } from './usage.js';
import { ATRIUM_VERSION } from './version.js';

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serve(rest);
    case 'inference':
      return inference(rest);
    case 'bench':
      return (await import('./commands/bench/index.js')).bench(rest);
    case 'provenance':
      return provenance(rest);
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
  const isArgError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  if (error instanceof ConfigError || error instanceof UsageError || isArgError) {
    process.stderr.write(`atrium: ${(error as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(`atrium: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
