import type { ModelConfig } from '../config.js';
import { baseAddresses, clientSnippets, KEY_VARIABLE } from './client-snippets.js';
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

/**
 * "Connect your client": per model its context length, input modalities and the allowances to configure, the
 * base address per client family, then copy-paste settings for coding agents and SDKs, against `base` (the
 * address this page was reached at).
 */
export function connectPage(models: readonly ModelConfig[], base: string): Html {
  if (models.length === 0) return html`<section><p>This key may use no model the gateway serves.</p></section>`;
  const first = models[0] as ModelConfig;
  const rows = models.map((m) => {
    const { output, input } = allowancesOf(m.contextLength);
    return html`<tr data-model="${m.id}"><td><code>${m.id}</code></td><td>${m.contextLength}</td><td>${m.modalities.join(', ')}</td><td>${output}</td><td>${input}</td></tr>`;
  });
  const example = clientSnippets({
    base,
    model: first.id,
    context: first.contextLength,
    output: allowancesOf(first.contextLength).output,
  });
  const block = (title: string, id: string, text: string) =>
    html`<h3>${title}</h3><pre data-testid="${id}"><code>${text}</code></pre>`;
  return html`<section><h2>Models</h2>
<p>Configure your client with the model's context length so that it compacts its context before reaching it.
For a client whose window is input plus output, the input allowance is the context length minus the output
allowance; ${SUGGESTED_OUTPUT_TOKENS} output tokens are suggested for coding clients (a client setting, not a
server limit; at most half the context of a small model).</p>
<table><thead><tr><th>Model</th><th>Context length</th><th>Input modalities</th><th>Output allowance</th><th>Input allowance</th></tr></thead>
<tbody>${rows}</tbody></table></section>
<section><h2>Base address</h2><p>API root: <code data-testid="api-root">${base}/v1</code>. Each client family expects one of two addresses:</p>
<table data-testid="base-addresses"><thead><tr><th>Clients</th><th>Setting</th><th>Address</th></tr></thead><tbody>${baseAddresses(
    base,
  ).map(
    (a) => html`<tr><td>${a.clients}</td><td><code>${a.setting}</code></td><td><code>${a.address}</code></td></tr>`,
  )}</tbody></table></section>
<section><h2>Settings</h2><p>Examples use <code>${first.id}</code> (context ${first.contextLength}); replace
<code>&lt;your key&gt;</code> by an API key of your project, or set <code>${KEY_VARIABLE}</code> to it where a snippet reads it.</p>
${block('Claude Code', 'claude-code', example.claudeCode)}
${block('codex', 'codex', example.codex)}
${block('opencode (opencode.json)', 'opencode', example.opencode)}
${block('Vercel AI SDK', 'ai-sdk', example.aiSdk)}
${block('LangChain JS', 'langchain', example.langchain)}
${block('Environment (OpenAI SDKs read these)', 'environment', example.environment)}
${block('OpenAI Python SDK', 'python', example.python)}
${block('OpenAI Node SDK', 'javascript', example.javascript)}
${block('Anthropic SDK (TypeScript)', 'anthropic-sdk', example.anthropicSdk)}
${block('curl', 'curl', example.curl)}</section>`;
}
