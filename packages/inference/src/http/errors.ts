import type { ErrorFormatter } from '@atrium/core';

const TYPE_BY_STATUS: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** Quota refusals carry their own type, as OpenAI's do (the SDKs and clients branch on it). */
const TYPE_BY_CODE: Record<string, string> = {
  insufficient_quota: 'insufficient_quota',
  rate_limit_exceeded: 'rate_limit_exceeded',
};

/** OpenAI's error envelope: `{"error": {"message", "type", "param", "code"}}`. */
export const formatInferenceError: ErrorFormatter = (problem) => ({
  statusCode: problem.status,
  body: {
    error: {
      message: problem.message,
      type:
        problem.status >= 500
          ? 'server_error'
          : (TYPE_BY_CODE[problem.code] ?? TYPE_BY_STATUS[problem.status] ?? 'invalid_request_error'),
      param: problem.param ?? null,
      code: problem.code,
    },
  },
});
