import { resolve } from 'node:path';
import { TEST_MODEL_REPLY, writeTestModel } from '@atrium/inference';
import { UsageError } from '../usage.js';

/** `atrium inference <subcommand>`: inference tooling outside the server. */
export async function inference(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'make-test-model') {
    throw new UsageError(`unknown inference subcommand '${subcommand ?? ''}'; expected make-test-model <out.gguf>`);
  }
  if (rest.length !== 1 || !rest[0]) throw new UsageError('usage: atrium inference make-test-model <out.gguf>');
  const out = resolve(rest[0]);
  writeTestModel(out);
  process.stdout.write(`wrote ${out}: a tiny llama-architecture test model that answers "${TEST_MODEL_REPLY}"\n`);
}
