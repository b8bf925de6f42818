import type { FastifyError } from 'fastify';
import { databaseUnavailable, isDatabaseUnavailable } from './database-unavailable.js';
import { HttpError, type HttpProblem } from './problem.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

function describeValidation(context: string | undefined, issues: ValidationIssue[]): HttpProblem {
  const first = issues[0] ?? {};
  const location = `${context ?? 'body'}${(first.instancePath ?? '').replace(/\//g, '.')}`;
  const param =
    first.keyword === 'additionalProperties'
      ? `${location}.${String(first.params?.additionalProperty)}`
      : first.keyword === 'required'
        ? `${location}.${String(first.params?.missingProperty)}`
        : location;
  const message =
    first.keyword === 'additionalProperties'
      ? `unknown field '${param}'`
      : first.keyword === 'required'
        ? `missing required field '${param}'`
        : `'${location}' ${first.message ?? 'is invalid'}`;
  return { status: 400, code: 'invalid_request', message, param };
}

const FASTIFY_CODES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'request body is empty but content-type is JSON' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body_too_large', message: 'request body is larger than the limit' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'unsupported content-type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_request', message: 'content-length does not match the body' },
  FST_ERR_BAD_URL: { code: 'invalid_url', message: 'the URL path has an invalid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'uri_too_long', message: 'a URL path segment is longer than the limit' },
};

/**
 * Maps anything a handler or Fastify can throw onto an HttpProblem. Messages of unexpected errors
 * are not exposed (they may quote request content); parse errors never echo the body.
 */
export function normalizeError(error: unknown): HttpProblem {
  if (error instanceof HttpError) {
    const problem = { status: error.status, code: error.code, message: error.message, param: error.param };
    return error.headers ? { ...problem, headers: error.headers } : problem;
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[] };
  if (fastifyError.validation) {
    return describeValidation(fastifyError.validationContext, fastifyError.validation);
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return { status: fastifyError.statusCode ?? 400, ...known };
  if (error instanceof SyntaxError && (fastifyError.statusCode ?? 0) === 400) {
    return { status: 400, code: 'invalid_json', message: 'request body is not valid JSON' };
  }
  if (isDatabaseUnavailable(error)) return databaseUnavailable;
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return { status, code: 'bad_request', message: fastifyError.message ?? 'bad request' };
  }
  return { status: 500, code: 'internal_error', message: 'internal server error' };
}
