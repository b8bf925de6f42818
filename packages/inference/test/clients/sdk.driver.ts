// Run by Node ≥ 22 (the SDKs' engines), not by vitest: `node sdk.driver.ts <sdk dir> <job JSON>`, see `driver.ts`
// for the job and what is printed. One job drives one SDK: the Vercel AI SDK (with one of its providers) or
// LangChain JS, each as its documentation sets it up for an OpenAI-compatible (or Anthropic) server.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Cases = Record<string, (key: string) => Promise<unknown>>;

const [sdkDir, jobJson] = process.argv.slice(2) as [string, string];
const job = JSON.parse(jobJson) as {
  base: string;
  model: string;
  sdk: 'ai-sdk' | 'langchain';
  /** The AI SDK's provider package, and for `@ai-sdk/openai` which API (`openai` is its default, the Responses API). */
  provider?: 'openai-compatible' | 'openai' | 'openai-chat' | 'anthropic';
  notes: string;
  image: string;
  runs: Array<{ name: string; case: string; key: string }>;
};
const require = createRequire(join(sdkDir, 'package.json'));
const notes = () => readFileSync(job.notes, 'utf8').trim();

function aiSdkCases(): Cases {
  const ai = require('ai');
  const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');
  const { createOpenAI } = require('@ai-sdk/openai');
  const { createAnthropic } = require('@ai-sdk/anthropic');

  /** The language and embedding models a user of `job.provider` gets with their key, on the SDK's defaults. */
  const modelsFor = (apiKey: string) => {
    const baseURL = `${job.base}/v1`;
    const compatible = createOpenAICompatible({ name: 'atrium', baseURL, apiKey });
    const openai = createOpenAI({ baseURL, apiKey });
    const language = {
      'openai-compatible': () => compatible(job.model),
      openai: () => openai(job.model),
      'openai-chat': () => openai.chat(job.model),
      anthropic: () => createAnthropic({ baseURL, apiKey })(job.model),
    }[job.provider ?? 'openai-compatible']();
    const embedding = job.provider === 'openai-compatible' ? compatible.embeddingModel : openai.embeddingModel;
    return { model: language, embedding: () => embedding(job.model) };
  };

  const readNotes = ai.tool({
    description: 'Reads the notes file.',
    inputSchema: ai.jsonSchema({ type: 'object', properties: {}, additionalProperties: false }),
    execute: async () => notes(),
  });

  return {
    generate: async (key) => ({
      text: (await ai.generateText({ model: modelsFor(key).model, prompt: 'Say hello.' })).text,
    }),
    stream: async (key) => {
      const chunks: string[] = [];
      for await (const part of ai.streamText({ model: modelsFor(key).model, prompt: 'Say hello.' }).fullStream) {
        if (part.type === 'error') throw part.error;
        if (part.type === 'text-delta') chunks.push(part.text);
      }
      return { chunks };
    },
    tool: async (key) => {
      const result = await ai.generateText({
        model: modelsFor(key).model,
        tools: { read_notes: readNotes },
        stopWhen: ai.isStepCount(2),
        prompt: 'READ-NOTES: what do my notes say?',
      });
      return { text: result.text, steps: result.steps.length };
    },
    image: async (key) => {
      const content = [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', image: readFileSync(job.image), mediaType: 'image/png' },
      ];
      return {
        text: (await ai.generateText({ model: modelsFor(key).model, messages: [{ role: 'user', content }] })).text,
      };
    },
    embed: async (key) => ({
      embedding: (await ai.embed({ model: modelsFor(key).embedding(), value: 'one' })).embedding,
    }),
    embedMany: async (key) => ({
      embeddings: (await ai.embedMany({ model: modelsFor(key).embedding(), values: ['one', 'two'] })).embeddings,
    }),
  };
}

function langchainCases(): Cases {
  const { ChatOpenAI, OpenAIEmbeddings } = require('@langchain/openai');
  const { HumanMessage, ToolMessage } = require('@langchain/core/messages');
  const { tool } = require('@langchain/core/tools');

  /** `ChatOpenAI` and `OpenAIEmbeddings` as a user points them at an OpenAI-compatible server, otherwise on defaults. */
  const configuration = () => ({ baseURL: `${job.base}/v1` });
  const chatFor = (apiKey: string) => new ChatOpenAI({ model: job.model, apiKey, configuration: configuration() });
  const embeddingsFor = (apiKey: string) =>
    new OpenAIEmbeddings({ model: job.model, apiKey, configuration: configuration() });

  const readNotes = tool(async () => notes(), {
    name: 'read_notes',
    description: 'Reads the notes file.',
    schema: { type: 'object', properties: {} },
  });

  return {
    invoke: async (key) => ({ text: (await chatFor(key).invoke('Say hello.')).content }),
    stream: async (key) => {
      const chunks: string[] = [];
      for await (const chunk of await chatFor(key).stream('Say hello.')) if (chunk.content) chunks.push(chunk.content);
      return { chunks };
    },
    tool: async (key) => {
      const chat = chatFor(key).bindTools([readNotes]);
      const messages: unknown[] = [new HumanMessage('READ-NOTES: what do my notes say?')];
      const call = await chat.invoke(messages);
      messages.push(call);
      for (const toolCall of call.tool_calls) {
        messages.push(new ToolMessage({ content: await readNotes.invoke(toolCall.args), tool_call_id: toolCall.id }));
      }
      return { calls: call.tool_calls.length, text: (await chat.invoke(messages)).content };
    },
    image: async (key) => {
      const url = `data:image/png;base64,${readFileSync(job.image).toString('base64')}`;
      const content = [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url } },
      ];
      return { text: (await chatFor(key).invoke([new HumanMessage({ content })])).content };
    },
    embedQuery: async (key) => ({ embedding: await embeddingsFor(key).embedQuery('one') }),
    embedDocuments: async (key) => ({ embeddings: await embeddingsFor(key).embedDocuments(['one', 'two']) }),
  };
}

const cases = job.sdk === 'ai-sdk' ? aiSdkCases() : langchainCases();
const outcomes: Record<string, unknown> = {};
for (const run of job.runs) {
  const started = performance.now();
  try {
    const result = await (cases[run.case] as Cases[string])(run.key);
    outcomes[run.name] = { result, ms: performance.now() - started };
  } catch (error) {
    outcomes[run.name] = { error: (error as Error).message, ms: performance.now() - started };
  }
}
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
