import type { IncomingMessage, ServerResponse } from 'node:http';

const BODY_LIMIT = 32 * 1024 * 1024;

/** vLLM's error classes by status, so the engine answers errors exactly as a vLLM upstream would. */
const ERROR_TYPES: Record<number, string> = { 400: 'BadRequestError', 404: 'NotFoundError', 413: 'BadRequestError' };

export class EngineHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new EngineHttpError(413, 'request body is too large');
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new EngineHttpError(400, 'request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new EngineHttpError(400, 'request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** vLLM ≥0.10.1 error body: `{"error": {message, type, param, code: <status>}}`. */
export function sendError(response: ServerResponse, error: EngineHttpError): void {
  const type = ERROR_TYPES[error.status] ?? 'InternalServerError';
  sendJson(response, error.status, { error: { message: error.message, type, param: error.param, code: error.status } });
}
