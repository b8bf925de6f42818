import type { FastifyRequest } from 'fastify';

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The request-describing fields every AiiDA REST response carries. */
export function requestFields(request: FastifyRequest) {
  const [rawPath = '', rawQuery = ''] = request.url.split(/\?(.*)/s, 2);
  const root = `${request.protocol}://${request.host}/`;
  return {
    method: request.method === 'HEAD' ? 'GET' : request.method,
    path: safeDecode(rawPath),
    query_string: safeDecode(rawQuery),
    url: safeDecode(`${root}${request.url.slice(1)}`),
    url_root: root,
  };
}
