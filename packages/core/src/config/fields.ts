import { z } from 'zod';
import { isAddressOrRange } from '../http/client-address.js';
import { type TlsConfig, tlsField } from '../http/tls.js';

export const portField = (defaultPort: number) =>
  z
    .number()
    .int()
    .min(0, 'must be a port number 0-65535')
    .max(65535, 'must be a port number 0-65535')
    .default(defaultPort);

/** The address to listen on (`bind`, not `host`: `ATRIUM_BENCH_HOST` is the bench client's server URL). */
export const bindField = z.string().min(1).default('127.0.0.1');

export const databaseUrlField = z
  .string()
  .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://')
  .optional();

/** The HTTP settings every service shares; each service adds its own keys next to these. */
export const httpFields = (defaultPort: number) => ({
  bind: bindField,
  port: portField(defaultPort),
  /** Default: sqlite:<dataDir>/<service>.db */
  database: databaseUrlField,
  /** Bytes a request body may have on the routes that take uploads; every other route takes at most 256 KiB. */
  bodyLimit: z.number().int().positive().default(1_048_576),
  corsOrigins: z.array(z.string()).default(['*']),
  shutdownTimeoutMs: z.number().int().positive().default(10_000),
  /** Time to receive a whole request, headers and body (not the response: long streams are not cut). */
  requestTimeoutMs: z.number().int().positive().default(60_000),
  /** Time to receive the request line and headers (slowloris). */
  headersTimeoutMs: z.number().int().positive().default(15_000),
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: z.number().int().positive().default(5_000),
  /** Connections open at once; further ones are closed as they arrive. */
  maxConnections: z.number().int().positive().default(4096),
  /**
   * Connections one client address (IPv6: one /64) may hold open at once; more are closed as they arrive. Through
   * a trusted proxy: requests under way per `X-Forwarded-For` client, more get 429.
   */
  maxConnectionsPerAddress: z.number().int().positive().default(256),
  /** HTTPS (HTTP/2 and HTTP/1.1) with these PEM files, re-read on SIGHUP; absent: plain HTTP. */
  tls: tlsField,
  /** Addresses or CIDR ranges of reverse proxies whose `X-Forwarded-For` names the client (sign-in throttles). */
  trustedProxies: z
    .array(z.string().refine(isAddressOrRange, 'must be an IP address or a CIDR range such as 10.0.0.0/8'))
    .default([]),
});

export const logSchema = z
  .strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    access: z.boolean().default(true),
  })
  .default({ level: 'info', access: true });

export type LogConfig = z.infer<typeof logSchema>;

export interface HttpConfig {
  bind: string;
  port: number;
  database?: string | undefined;
  bodyLimit: number;
  corsOrigins: string[];
  shutdownTimeoutMs: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  tls?: TlsConfig | undefined;
  trustedProxies: string[];
}
