/** What a snippet is written for: the service's address, a model, and the allowances to configure. */
export interface SnippetModel {
  base: string;
  model: string;
  context: number;
  output: number;
  /** Input modalities of the model (text, image, …). */
  modalities: readonly string[];
}

/** Claude Code reserves its output allowance, at most this much, out of the context (2.1.x). */
const CLAUDE_CODE_OUTPUT_RESERVE = 20_000;

/** The environment variable the agent and SDK snippets read the key from. */
export const KEY_VARIABLE = 'ATRIUM_API_KEY';

/**
 * The base address each client family expects: OpenAI-style clients and the AI SDK's Anthropic provider append
 * paths to `…/v1`; Claude Code and Anthropic's own SDKs append `/v1/messages` themselves.
 */
export const baseAddresses = (base: string) => [
  {
    clients:
      "OpenAI SDKs, codex, opencode, the AI SDK (all providers, createAnthropic included), LangChain's ChatOpenAI",
    setting: 'baseURL / base_url',
    address: `${base}/v1`,
  },
  {
    clients: "Claude Code (ANTHROPIC_BASE_URL) and Anthropic's SDKs (@anthropic-ai/sdk, anthropic for Python)",
    setting: 'ANTHROPIC_BASE_URL / baseURL',
    address: base,
  },
];

/** Copy-paste settings per client, in the order the page shows them. */
export function clientSnippets({ base, model, context, output, modalities }: SnippetModel) {
  // opencode sends attached images only to a model declared to take them; otherwise it drops them silently.
  const opencodeInput = modalities.includes('image')
    ? `, "attachment": true, "modalities": { "input": ${JSON.stringify(modalities)}, "output": ["text"] }`
    : '';
  return {
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
  -H "Authorization: Bearer <your key>" \\
  -H 'content-type: application/json' \\
  -d '{"model":"${model}","max_tokens":${output},
       "messages":[{"role":"user","content":"Hello"}]}'`,
    claudeCode: `# the base address without /v1
export ANTHROPIC_BASE_URL=${base}
export ANTHROPIC_AUTH_TOKEN=<your key>
export ANTHROPIC_MODEL=${model}
export ANTHROPIC_DEFAULT_HAIKU_MODEL=${model}
export CLAUDE_CODE_MAX_OUTPUT_TOKENS=${output}
# the model's context length (Claude Code assumes 200000 for models it does not know); it keeps
# its input below this minus its output allowance: ${context - Math.min(output, CLAUDE_CODE_OUTPUT_RESERVE)} tokens
export CLAUDE_CODE_MAX_CONTEXT_TOKENS=${context}
# tool search (deferred tools) is off by default on a base address other than Anthropic's
export ENABLE_TOOL_SEARCH=true`,
    anthropicSdk: `import Anthropic from '@anthropic-ai/sdk';

// the base address without /v1: the SDK adds /v1/messages
const client = new Anthropic({
  baseURL: '${base}',
  apiKey: process.env.${KEY_VARIABLE},
});
const message = await client.messages.create({
  model: '${model}',
  max_tokens: ${output},
  messages: [{ role: 'user', content: 'Hello' }],
});`,
    codex: `# ~/.codex/config.toml (codex speaks the Responses API: /v1/responses)
model = "${model}"
model_provider = "atrium"
model_context_window = ${context}
model_max_output_tokens = ${output}
model_auto_compact_token_limit = ${context - output}

[model_providers.atrium]
name = "Atrium"
base_url = "${base}/v1"
env_key = "${KEY_VARIABLE}"
wire_api = "responses"

# then: export ${KEY_VARIABLE}=<your key>; codex`,
    opencode: `{
  "$schema": "https://opencode.ai/config.json",
  "provider": {
    "atrium": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Atrium",
      "options": { "baseURL": "${base}/v1", "apiKey": "{env:${KEY_VARIABLE}}" },
      "models": {
        "${model}": { "name": "${model}", "limit": { "context": ${context}, "output": ${output} }${opencodeInput} }
      }
    }
  },
  "model": "atrium/${model}"
}`,
    aiSdk: `import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';

const apiKey = process.env.${KEY_VARIABLE};
// chat completions
const atrium = createOpenAICompatible({
  name: 'atrium',
  baseURL: '${base}/v1',
  apiKey,
});
// openai(model) uses the Responses API, openai.chat(model) chat completions; nothing is stored here, so give
// openai(model) providerOptions: { openai: { store: false } } for conversations of more than one turn
const openai = createOpenAI({ baseURL: '${base}/v1', apiKey });
// the Messages API: this provider's baseURL includes /v1
const anthropic = createAnthropic({ baseURL: '${base}/v1', apiKey });

const { text } = await generateText({
  model: atrium('${model}'),
  maxOutputTokens: ${output},
  prompt: 'Hello',
});`,
    langchain: `import { ChatOpenAI } from '@langchain/openai';

const chat = new ChatOpenAI({
  model: '${model}',
  apiKey: process.env.${KEY_VARIABLE},
  maxTokens: ${output},
  configuration: { baseURL: '${base}/v1' },
});
const answer = await chat.invoke('Hello');`,
  };
}
