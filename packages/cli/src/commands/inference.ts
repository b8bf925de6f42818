import { resolve } from 'node:path';
import { TEST_MODEL_REPLY, writeTestModel } from '@atrium/inference';
import { UsageError } from '../usage.js';
import { INFERENCE_ADMIN_COMMANDS, inferenceAdmin } from './inference-admin.js';

/** `atrium inference <subcommand>`: inference tooling outside the server. */
export async function inference(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  if (subcommand && INFERENCE_ADMIN_COMMANDS.has(subcommand)) return inferenceAdmin(subcommand, rest);
  if (subcommand !== 'make-test-model') {
    throw new UsageError(
      `unknown inference subcommand '${subcommand ?? ''}'; expected make-test-model <out.gguf> or an operator command (create-account, create-project, add-member, add-grant, set-allocation, set-rate, convert, top-up, set-limits, requests, approve, reject, create-key, announce)`,
    );
  }
  if (rest.length !== 1 || !rest[0]) throw new UsageError('usage: atrium inference make-test-model <out.gguf>');
  const out = resolve(rest[0]);
  writeTestModel(out);
  process.stdout.write(`wrote ${out}: a tiny llama-architecture test model that answers "${TEST_MODEL_REPLY}"\n`);
}
