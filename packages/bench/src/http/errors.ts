import type { ErrorFormatter } from '@atrium/core';

/** Bencher's error body: `{"request_id", "error_code"?, "message"}`. */
export const formatBenchError: ErrorFormatter = (problem, request) => ({
  statusCode: problem.status,
  body: { request_id: request.id, error_code: problem.code, message: problem.message },
});
