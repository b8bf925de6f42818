import type { Service } from '../bench/lib/atrium-serve.js';

/** Whether an error answer's body is in the service's own wire format (not Fastify's or Node's default). */
export function inServiceShape(service: Service, body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null) return false;
  const o = parsed as Record<string, unknown>;
  if (typeof o.code === 'string' && o.code.startsWith('FST_')) return false;
  const nested = o.error as Record<string, unknown> | undefined;
  switch (service) {
    case 'inference': // OpenAI `{error: {message, type, code}}` or Anthropic `{type: "error", error: {type, message}}`
      return typeof nested === 'object' && nested !== null && typeof nested.message === 'string';
    case 'provenance': // the AiiDA REST envelope keeps `message`
      return typeof o.message === 'string' && !('statusCode' in o);
    case 'bench': // Bencher's `{request_id, error_code?, message}`
      return typeof o.request_id === 'string' && typeof o.message === 'string';
  }
}
