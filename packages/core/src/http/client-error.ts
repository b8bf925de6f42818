import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorFormatter } from './app.js';
import type { HttpProblem } from './problem.js';

const PROBLEMS: Record<string, HttpProblem> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    message: 'the request was not received in time',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    message: 'the request line and headers are larger than the limit',
  },
};

const MALFORMED: HttpProblem = { status: 400, code: 'bad_request', message: 'malformed HTTP request' };

/**
 * Node's `clientError` (malformed framing, oversized headers, request timeouts) comes before there is a
 * request to reply to: the service's error body is written to the socket by hand, then the socket is closed.
 */
export function clientErrorHandler(formatError: ErrorFormatter) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already under way (Node's own check) cannot be followed by an error response.
    const started = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;
    if (socket.writable && !started) {
      const id = randomUUID();
      const formatted = formatError(PROBLEMS[error.code ?? ''] ?? MALFORMED, { id });
      const body = typeof formatted.body === 'string' ? formatted.body : JSON.stringify(formatted.body);
      const headers = Object.entries({ ...formatted.headers, 'x-request-id': id })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `HTTP/1.1 ${formatted.statusCode} ${STATUS_CODES[formatted.statusCode] ?? ''}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n` +
          `${headers}\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
