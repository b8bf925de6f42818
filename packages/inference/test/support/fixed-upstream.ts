import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recorded vLLM 0.11 non-streaming answer: the vLLM-only fields the embedded engine never fills. */
export const VLLM_COMPLETION = {
  id: 'chatcmpl-0d1f7c2e9a2b4c7e8f1a',
  object: 'chat.completion',
  created: 1_735_142_223,
  model: 'Qwen/Qwen3-32B',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Paris.',
        refusal: null,
        annotations: null,
        audio: null,
        function_call: null,
        tool_calls: [],
        reasoning_content: 'The user asks for the capital of France.',
      },
      logprobs: null,
      finish_reason: 'stop',
      stop_reason: 151_645,
      token_ids: [12_095, 13],
    },
  ],
  service_tier: null,
  system_fingerprint: null,
  usage: { prompt_tokens: 14, total_tokens: 30, completion_tokens: 16, prompt_tokens_details: { cached_tokens: 0 } },
  prompt_logprobs: null,
  prompt_token_ids: [1, 2, 3],
  kv_transfer_params: null,
};

const chunk = (delta: string, extra = '') =>
  `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1735142223,"model":"Qwen/Qwen3-32B","choices":[${delta}]${extra}}\n\n`;
const usage = (completion: number) =>
  `,"usage":{"prompt_tokens":14,"total_tokens":${14 + completion},"completion_tokens":${completion}}`;

/** A vLLM stream with continuous usage, as the gateway always requests it. */
export const VLLM_STREAM =
  chunk('{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}', usage(0)) +
  chunk('{"index":0,"delta":{"content":"Paris"},"logprobs":null,"finish_reason":null}', usage(1)) +
  chunk('{"index":0,"delta":{"content":"."},"logprobs":null,"finish_reason":"stop","stop_reason":null}', usage(2)) +
  chunk('', usage(2)) +
  'data: [DONE]\n\n';

export type Responder = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** Answers every chat request with the recorded completion (or stream), embeddings with a fixed vector. */
export const recordedVllm: Responder = (request, body, response) => {
  if (request.url === '/v1/embeddings') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      '{"object":"list","data":[{"index":0,"object":"embedding","embedding":[0.5,-0.25]}],"model":"Qwen/Qwen3-32B","usage":{"prompt_tokens":2,"total_tokens":2}}',
    );
    return;
  }
  if (body.includes('"stream":true')) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(VLLM_STREAM);
    return;
  }
  const text = JSON.stringify(VLLM_COMPLETION);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
};

export interface FixedUpstream {
  origin: string;
  /** Requests received (paths), health probes excluded. */
  requests: string[];
  close(): Promise<void>;
}

/** A minimal OpenAI-compatible server on loopback: `GET /health` and whatever `respond` does for POSTs. */
export async function startFixedUpstream(respond: Responder = recordedVllm): Promise<FixedUpstream> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/health') {
      response.writeHead(200, { 'content-length': 0 });
      response.end();
      return;
    }
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (d: string) => {
      body += d;
    });
    request.on('end', () => {
      requests.push(request.url ?? '');
      respond(request, body, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
