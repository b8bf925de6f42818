import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FixedUpstream, startFixedUpstream } from './fixed-upstream.js';

/** The context length of the model this upstream serves. */
export const METERED_CONTEXT = 4096;
/** A prompt word that makes the upstream report no usage at all, as servers that ignore `stream_options` do. */
export const NO_USAGE = 'no-usage';
/** A prompt word that makes the upstream report 100,000 prompt tokens, more than any test request reserves. */
export const OVER_REPORT = 'over-report';
/** A prompt word that makes a stream send its first chunk and then hold the connection open. */
export const HOLD = 'hold-open';
/** `answer-tokens:N` in a prompt: each choice ends by itself (`stop`) after N tokens, unless its cap comes first. */
const ANSWER = /answer-tokens:(\d+)/;
export const answerOf = (tokens: number) => `answer-tokens:${tokens}`;

type Body = Record<string, unknown> & { messages?: unknown[]; input?: unknown; n?: number | null };

const bytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/** A tokenizer's plausible count: a quarter of the JSON bytes of what the template renders. */
const promptTokens = (body: Body) =>
  Math.ceil((bytes(body.messages) + bytes(body.tools) + bytes(body.tool_choice) + bytes(body.response_format)) / 4);

function embeddingTokens(input: unknown): number {
  const items =
    typeof input === 'string' || typeof (input as unknown[])[0] === 'number' ? [input] : (input as unknown[]);
  return items.reduce<number>(
    (sum, item) =>
      sum + (typeof item === 'string' ? Math.ceil(Buffer.byteLength(item) / 4) : (item as unknown[]).length),
    0,
  );
}

export interface MeteringUpstream extends FixedUpstream {
  /** The total tokens reported for each answered generation request, in order. */
  reported: number[];
  /** The body of each request received, in order. */
  bodies: string[];
}

/**
 * A vLLM-like upstream that meters like one: `n` choices that each use all of `max_completion_tokens` /
 * `max_tokens` (what the context leaves without; fewer when the prompt names its answer's length, see `answerOf`), summed usage on the final stream chunk and, when asked, on every chunk;
 * embeddings and `/tokenize` counted from their input.
 */
export async function startMeteringUpstream(): Promise<MeteringUpstream> {
  const reported: number[] = [];
  const bodies: string[] = [];
  const respond = (request: IncomingMessage, text: string, response: ServerResponse) => {
    bodies.push(text);
    const body = JSON.parse(text) as Body;
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.url === '/tokenize') return json({ count: promptTokens(body), max_model_len: METERED_CONTEXT });
    const reports = !text.includes(NO_USAGE);
    if (request.url === '/v1/embeddings') {
      const prompt = embeddingTokens(body.input);
      if (reports) reported.push(prompt);
      return json({
        object: 'list',
        data: [{ index: 0, object: 'embedding', embedding: [0.5, -0.25] }],
        ...(reports ? { usage: { prompt_tokens: prompt, total_tokens: prompt } } : {}),
      });
    }
    const choices = body.n ?? 1;
    const prompt = text.includes(OVER_REPORT) ? 100_000 : promptTokens(body);
    // As vLLM: without a limit, what the context leaves.
    const cap = (body.max_completion_tokens ?? body.max_tokens ?? Math.max(0, METERED_CONTEXT - prompt)) as number;
    const answer = ANSWER.exec(text);
    const perChoice = answer ? Math.min(cap, Number(answer[1])) : cap;
    const finish = perChoice < cap ? 'stop' : 'length';
    const usage = { prompt_tokens: prompt, completion_tokens: choices * perChoice, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (reports) reported.push(usage.total_tokens);
    const indices = Array.from({ length: choices }, (_, i) => i);
    if (body.stream !== true) {
      return json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: indices.map((index) => ({
          index,
          message: { role: 'assistant', content: 'ok' },
          finish_reason: finish,
        })),
        ...(reports ? { usage } : {}),
      });
    }
    const options = (body.stream_options ?? {}) as { include_usage?: boolean; continuous_usage_stats?: boolean };
    const running = reports && options.continuous_usage_stats ? { usage } : {};
    const chunk = (deltas: unknown[], extra: object) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: deltas, ...extra })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(
      chunk(
        indices.map((index) => ({ index, delta: { role: 'assistant', content: 'ok' }, finish_reason: null })),
        running,
      ),
    );
    if (text.includes(HOLD)) return;
    response.end(
      chunk(
        indices.map((index) => ({ index, delta: {}, finish_reason: finish })),
        running,
      ) +
        (reports && options.include_usage ? chunk([], { usage }) : '') +
        'data: [DONE]\n\n',
    );
  };
  const upstream = await startFixedUpstream(respond);
  return { ...upstream, reported, bodies };
}
