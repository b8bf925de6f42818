import type { DestinationStream, Logger } from 'pino';
import { pino, destination as pinoDestination, stdSerializers } from 'pino';
import type { LogConfig } from '../config/fields.js';

export type { Logger } from 'pino';

/** Header names whose values are secrets; they are never written to the log. */
const SECRET_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

/**
 * Structured JSON logger. Request bodies, headers and query strings are not serialised at all;
 * the redaction list is a second line of defence for code that logs a headers object by hand.
 */
export function createLogger(config: Pick<LogConfig, 'level'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.level,
      base: { pid: process.pid },
      redact: { paths: SECRET_PATHS, censor: '[redacted]' },
      serializers: { err: stdSerializers.err },
    },
    // Asynchronous stdout writes keep logging off the request path; pino flushes them on exit.
    destination ?? pinoDestination({ dest: 1, sync: false }),
  );
}
