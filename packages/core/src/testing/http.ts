import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type HttpConfig, httpFields } from '../config/fields.js';
import { createLogger, type Logger } from '../log/logger.js';

/** The shared HTTP settings with their defaults, for apps built in tests. */
export function testHttpConfig(overrides: Partial<HttpConfig> = {}): HttpConfig {
  return { ...z.object(httpFields(0)).parse({}), ...overrides };
}

/** Listens on an ephemeral loopback port and returns the base URL (no trailing slash). */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface CapturedLog {
  logger: Logger;
  /** Everything written so far, one JSON document per line. */
  text(): string;
}

/** A real pino logger whose output is kept in memory, to assert on what would be logged. */
export function captureLog(level: 'info' | 'debug' | 'trace' = 'trace'): CapturedLog {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return { logger: createLogger({ level }, sink), text: () => chunks.join('') };
}

export const silentLogger: Logger = createLogger({ level: 'silent' });
