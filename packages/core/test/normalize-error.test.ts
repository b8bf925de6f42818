import { describe, expect, it } from 'vitest';
import { HttpError, normalizeError } from '../src/index.js';

const fastifyError = (code: string, statusCode: number, message = 'raw text with body') =>
  Object.assign(new Error(message), { code, statusCode });

describe('normalizeError', () => {
  it.each([
    [
      'HttpError',
      new HttpError(409, 'conflict', 'slug taken', 'body.slug'),
      { status: 409, code: 'conflict', message: 'slug taken', param: 'body.slug' },
    ],
    [
      'bad JSON',
      fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400),
      { status: 400, code: 'invalid_json', message: 'request body is not valid JSON' },
    ],
    [
      'JSON SyntaxError',
      Object.assign(new SyntaxError('Unexpected token s in "sk-1"'), { statusCode: 400 }),
      { status: 400, code: 'invalid_json', message: 'request body is not valid JSON' },
    ],
    [
      'too large',
      fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413),
      { status: 413, code: 'body_too_large', message: 'request body is larger than the limit' },
    ],
    [
      'media type',
      fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415),
      { status: 415, code: 'unsupported_media_type', message: 'unsupported content-type' },
    ],
    [
      'other 4xx',
      fastifyError('FST_SOMETHING', 405, 'method not allowed'),
      { status: 405, code: 'bad_request', message: 'method not allowed' },
    ],
    [
      'plain Error',
      new Error('secret detail'),
      { status: 500, code: 'internal_error', message: 'internal server error' },
    ],
    ['a thrown string', 'oops', { status: 500, code: 'internal_error', message: 'internal server error' }],
    [
      'validation: wrong type',
      Object.assign(new Error('x'), {
        validation: [{ instancePath: '/messages/0/role', message: 'must be string', keyword: 'type' }],
        validationContext: 'body',
      }),
      {
        status: 400,
        code: 'invalid_request',
        message: "'body.messages.0.role' must be string",
        param: 'body.messages.0.role',
      },
    ],
    [
      'validation: unknown field',
      Object.assign(new Error('x'), {
        validation: [{ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'foo' } }],
        validationContext: 'querystring',
      }),
      { status: 400, code: 'invalid_request', message: "unknown field 'querystring.foo'", param: 'querystring.foo' },
    ],
  ])('%s', (_name, error, expected) => {
    expect(normalizeError(error)).toEqual({ param: undefined, ...expected });
  });
});

describe('normalizeError: an unreachable database is a 503 with Retry-After', () => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  const socket = (code: string, syscall: string) => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
  const unavailable = {
    status: 503,
    code: 'database_unavailable',
    message: 'the database is unavailable; try again shortly',
    headers: { 'retry-after': '5' },
  };
  it.each([
    ['connection refused', socket('ECONNREFUSED', 'connect')],
    ['refused on every address', new AggregateError([socket('ECONNREFUSED', 'connect')], '')],
    ['connection reset', socket('ECONNRESET', 'read')],
    ['broken pipe', socket('EPIPE', 'write')],
    ['admin shutdown', coded('57P01', 'terminating connection due to administrator command')],
    ['crash shutdown', coded('57P02')],
    ['cannot connect now', coded('57P03', 'the database system is shutting down')],
    ['too many connections', coded('53300')],
    ['connection failure (class 08)', coded('08006')],
    ['connection does not exist (class 08)', coded('08003')],
    ['lost mid-query', new Error('Connection terminated unexpectedly')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['broken client reused', new Error('Client has encountered a connection error and is not queryable')],
    ['SQLite busy', coded('SQLITE_BUSY', 'database is locked')],
  ])('%s', (_name, error) => {
    expect(normalizeError(error)).toEqual(unavailable);
  });

  it.each([
    ['a client that aborted its request', coded('ECONNRESET', 'aborted')],
    ['unique violation', coded('23505', 'duplicate key value')],
    ['syntax error', coded('42601')],
    ['SQLite constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['a message that merely mentions a connection', new Error('user input: Connection terminated unexpectedly')],
    ['not an Error', { code: 'ECONNREFUSED' }],
  ])('%s stays a 500', (_name, error) => {
    expect(normalizeError(error).status).toBe(500);
  });
});
