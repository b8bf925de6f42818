import { HttpError } from '@atrium/core';

const MAX_MESSAGE = 300;
/** Statuses that describe the client's request and are passed on; anything else is the gateway's problem. */
const CLIENT_STATUSES = new Set([400, 404, 413, 422, 429]);

/** The message of an upstream error body in any of the shapes seen: vLLM ≥0.10.1, vLLM before, `{error: "…"}`. */
export function upstreamErrorMessage(bodyText: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { error, message } = parsed as { error?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return typeof message === 'string' ? message : undefined;
}

const truncate = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);

/**
 * Re-wraps an upstream error into the gateway's own. Client errors keep their status and a truncated message
 * (vLLM validation errors can echo the whole input); upstream failures become a 502 that quotes nothing, since
 * 5xx errors are logged and the upstream text may contain prompt content.
 */
export function upstreamError(status: number, bodyText: string): HttpError {
  if (!CLIENT_STATUSES.has(status)) {
    return new HttpError(502, 'upstream_error', `the model server failed to answer (HTTP ${status})`);
  }
  const message = upstreamErrorMessage(bodyText) ?? `the model server refused the request (HTTP ${status})`;
  const code = /maximum context length/i.test(message) ? 'context_length_exceeded' : 'upstream_rejected';
  return new HttpError(status, code, truncate(message));
}
