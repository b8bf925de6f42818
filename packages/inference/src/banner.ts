import type { InferenceConfig } from './config.js';
import { demoCredentials } from './tenancy/demo.js';

/** Configurations whose database had no operator account when the gateway started. */
export const withoutOperator = new WeakSet<InferenceConfig>();

/** A configured secret on every later start: enough to recognise it, too little to use it (short ones not at all). */
const masked = (secret: string) => (secret.length >= 16 ? `${secret.slice(0, 3)}…${secret.slice(-4)}` : '(hidden)');

/** The start banner: the API root, what is being served, the web UI, and how to sign in to it. */
export function describeInference(config: InferenceConfig, baseUrl: string): string {
  const lines = [
    `${baseUrl}/v1/  (OpenAI-compatible: /v1/models, /v1/chat/completions, /v1/responses, /v1/embeddings)`,
  ];
  if (config.models.length === 0) {
    lines.push(
      '              serving atrium/tiny-test-model: a tiny generated TEST model (it always answers "Hello! I am a tiny test model.")',
      '              for real answers, point Atrium at a real GGUF (e.g. any Qwen or Llama instruct GGUF) in atrium.toml:',
      '                [[inference.models]]',
      '                id = "qwen/qwen2.5-0.5b-instruct"',
      '                contextLength = 32768',
      '                backend = { type = "embedded", path = "/path/to/qwen2.5-0.5b-instruct-q8_0.gguf" }',
    );
  } else {
    lines.push(`              models: ${config.models.map((m) => m.id).join(', ')}`);
  }
  const demo = demoCredentials.get(config);
  lines.push(
    `              web UI: ${baseUrl}/ui/  (projects, keys, usage; operators: credits, limits, announcements)`,
  );
  if (demo?.account) {
    lines.push(`              demo account: ${demo.account.email}  password: ${demo.account.password}`);
  } else if (withoutOperator.has(config)) {
    lines.push(
      '              no operator yet: atrium inference create-account --admin --email E --name N --password-stdin',
      '                (with the same --config; then sign in at the web UI)',
    );
  }
  if (demo?.key && demo.account) {
    lines.push(`              demo API key: ${demo.key}   (shown once; ATRIUM_DEMO=0 skips the demo data)`);
  } else if (demo?.key) {
    lines.push(`              demo API key: ${masked(demo.key)}   (set by ATRIUM_DEMO_KEY or inference.auth.demoKey)`);
  }
  return lines.join('\n');
}
