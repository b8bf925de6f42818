import type { ModelConfig } from '../config.js';
import { type Html, html } from './html.js';

/** The response allowance suggested for coding clients: a client setting, not a server limit. */
const SUGGESTED_OUTPUT_TOKENS = 16_384;

/**
 * What to configure a client with for a model: the suggested output allowance (at most half the context, for
 * small models) and the input allowance, the context length minus it, where the client compacts its context.
 */
export function allowancesOf(contextLength: number): { output: number; input: number } {
  const output = Math.min(SUGGESTED_OUTPUT_TOKENS, Math.floor(contextLength / 2));
  return { output, input: contextLength - output };
}

const snippets = (base: string, model: string, output: number) => ({
  environment: `export OPENAI_BASE_URL=${base}/v1
export OPENAI_API_KEY=<your key>`,
  python: `from openai import OpenAI

client = OpenAI(base_url="${base}/v1", api_key="<your key>")
answer = client.chat.completions.create(
    model="${model}",
    max_tokens=${output},
    messages=[{"role": "user", "content": "Hello"}],
)
print(answer.choices[0].message.content)`,
  javascript: `import OpenAI from 'openai';

const client = new OpenAI({ baseURL: '${base}/v1', apiKey: '<your key>' });
const answer = await client.chat.completions.create({
  model: '${model}',
  max_tokens: ${output},
  messages: [{ role: 'user', content: 'Hello' }],
});
console.log(answer.choices[0].message.content);`,
  curl: `curl ${base}/v1/chat/completions \\
  -H "Authorization: Bearer <your key>" -H 'content-type: application/json' \\
  -d '{"model":"${model}","max_tokens":${output},"messages":[{"role":"user","content":"Hello"}]}'`,
  anthropic: `# the base address without /v1
export ANTHROPIC_BASE_URL=${base}
export ANTHROPIC_AUTH_TOKEN=<your key>
export ANTHROPIC_MODEL=${model}
export CLAUDE_CODE_MAX_OUTPUT_TOKENS=${output}`,
});

/**
 * "Connect your client": per model its context length, input modalities and the allowances to configure,
 * then copy-paste settings for the OpenAI SDKs, curl and Anthropic-style tools, against `base` (the address
 * this page was reached at).
 */
export function connectPage(models: readonly ModelConfig[], base: string): Html {
  if (models.length === 0) return html`<section><p>This key may use no model the gateway serves.</p></section>`;
  const first = models[0] as ModelConfig;
  const rows = models.map((m) => {
    const { output, input } = allowancesOf(m.contextLength);
    return html`<tr data-model="${m.id}"><td><code>${m.id}</code></td><td>${m.contextLength}</td><td>${m.modalities.join(', ')}</td><td>${output}</td><td>${input}</td></tr>`;
  });
  const example = snippets(base, first.id, allowancesOf(first.contextLength).output);
  const block = (title: string, id: string, text: string) =>
    html`<h3>${title}</h3><pre data-testid="${id}"><code>${text}</code></pre>`;
  return html`<section><h2>Models</h2>
<p>Configure your client with the model's context length so that it compacts its context before reaching it.
For a client whose window is input plus output, the input allowance is the context length minus the output
allowance; ${SUGGESTED_OUTPUT_TOKENS} output tokens are suggested for coding clients (a client setting, not a
server limit; at most half the context of a small model).</p>
<table><thead><tr><th>Model</th><th>Context length</th><th>Input modalities</th><th>Output allowance</th><th>Input allowance</th></tr></thead>
<tbody>${rows}</tbody></table></section>
<section><h2>Settings</h2><p>API root: <code data-testid="api-root">${base}/v1</code>. Examples use <code>${first.id}</code>;
replace <code>&lt;your key&gt;</code> by an API key of your project.</p>
${block('Environment (OpenAI SDKs read these)', 'environment', example.environment)}
${block('OpenAI Python SDK', 'python', example.python)}
${block('OpenAI Node SDK', 'javascript', example.javascript)}
${block('curl', 'curl', example.curl)}
${block('Anthropic-style tools (Claude Code, the Anthropic SDK)', 'anthropic', example.anthropic)}</section>`;
}
