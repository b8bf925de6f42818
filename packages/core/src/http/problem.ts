/**
 * A service-neutral description of a failed request. Core turns every error into one of these;
 * each service's formatter turns it into its own wire format.
 */
export interface HttpProblem {
  status: number;
  /** Stable machine-readable code, e.g. `not_found`, `invalid_json`, `body_too_large`. */
  code: string;
  message: string;
  /** The request field at fault, when known (e.g. `body.model`). */
  param?: string | undefined;
  /** Response headers the problem implies, e.g. `retry-after` on a 503. */
  headers?: Record<string, string>;
}

/** Throw this from a handler to answer with a specific status and code. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
