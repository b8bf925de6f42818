import { resolve } from 'node:path';
import { TEST_MODEL_REPLY, writeTestModel } from '@atrium/inference';
import { UsageError, wantsHelp } from '../usage.js';
import { inferenceAdmin } from './inference-admin.js';
import { INFERENCE_SUBCOMMANDS, inferenceUsage } from './inference-help.js';
import { inferenceReload } from './inference-reload.js';

/** `atrium inference <subcommand>`: inference tooling outside the server. */
export async function inference(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || subcommand === 'help' || subcommand === '--help' || subcommand === '-h') {
    process.stdout.write(inferenceUsage(rest[0]));
    return;
  }
  if (!INFERENCE_SUBCOMMANDS.has(subcommand))
    throw new UsageError(`unknown inference subcommand '${subcommand}'; run 'atrium inference --help'`);
  if (wantsHelp(rest)) {
    process.stdout.write(inferenceUsage(subcommand));
    return;
  }
  if (subcommand === 'reload') return inferenceReload(rest);
  if (subcommand !== 'make-test-model') return inferenceAdmin(subcommand, rest);
  if (rest.length !== 1 || !rest[0]) throw new UsageError(inferenceUsage('make-test-model').trimEnd());
  const out = resolve(rest[0]);
  writeTestModel(out);
  process.stdout.write(`wrote ${out}: a tiny llama-architecture test model that answers "${TEST_MODEL_REPLY}"\n`);
}
