import type { InferenceConfig } from './config.js';

/** The start banner: the API root, what is being served, and how to authenticate. */
export function describeInference(config: InferenceConfig, baseUrl: string): string {
  const lines = [`${baseUrl}/v1/  (OpenAI-compatible: /v1/models, /v1/chat/completions, /v1/embeddings)`];
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
  if (config.auth.staticKeys.length === 0) {
    lines.push(`              demo API key: ${config.auth.demoKey}   (set ATRIUM_DEMO_KEY to choose it)`);
  }
  return lines.join('\n');
}
