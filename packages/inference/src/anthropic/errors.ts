import type { HttpProblem } from '@atrium/core';

/** Anthropic's error types by HTTP status; other 4xx are `invalid_request_error`, other 5xx `api_error`. */
const TYPE_BY_STATUS: Record<number, string> = {
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Problems that retrying cannot fix although their status says "later" (an exhausted budget). */
const FINAL_CODES = new Set(['budget_exceeded', 'insufficient_quota']);

export function anthropicErrorType(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** `{"type":"error","error":{"type","message"},"request_id"}`, the shape of the SDK's `ErrorResponse`. */
export function anthropicErrorBody(problem: Pick<HttpProblem, 'status' | 'message'>, requestId: string | null): string {
  return JSON.stringify({
    type: 'error',
    error: { type: anthropicErrorType(problem.status), message: problem.message },
    request_id: requestId,
  });
}

/** Headers an error response carries besides `request-id`: the SDK retries a 429 unless told not to. */
export function anthropicErrorHeaders(problem: Pick<HttpProblem, 'status' | 'code'>): Record<string, string> {
  return problem.status === 429 && FINAL_CODES.has(problem.code) ? { 'x-should-retry': 'false' } : {};
}

/** An error after the 200 of a stream: an `error` event, which the SDK throws as an `APIError`. */
export function anthropicErrorEvent(type: 'api_error' | 'overloaded_error', message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
}
