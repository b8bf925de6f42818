// What one client without credentials could do to a whole process (issue 26): a deeply nested JSON body on a route
// that does not exist or that takes JSON (H2), and more idle connections from one address than the server takes
// (M5). Each must be answered within the usual 2 s, with /healthz under 1 s meanwhile.
import type { Service } from '../../bench/lib/atrium-serve.js';
import type { Case } from '../case.js';

const MIB = 1024 * 1024;
const json = { 'content-type': 'application/json' };

const nested: Record<number, Buffer> = {};
/** `[[[…]]]`, `bytes` long, made once. */
const nestedBody = (bytes: number) => {
  nested[bytes] ??= Buffer.concat([Buffer.alloc(bytes / 2, '['), Buffer.alloc(bytes / 2, ']')]);
  return nested[bytes];
};

/** More than the default `maxConnections` (4,096): before the per-address cap they took every connection. */
const FLOOD = 4200;

/** A route of the service that takes JSON from anyone, and its largest body. */
const JSON_ROUTES: Record<Service, { path: string; bytes: number; expect: Case['expect'] }> = {
  inference: { path: '/ui/signin/password', bytes: 30 * MIB, expect: { status: 415, page: true } },
  provenance: { path: '/api/v4/querybuilder', bytes: MIB - 2, expect: { status: 400 } },
  bench: { path: '/v0/run', bytes: 4 * MIB - 2, expect: { status: 400 } },
};

export const exhaustionCases = (service: Service): Case[] => {
  const route = JSON_ROUTES[service];
  return [
    {
      name: 'H2 a 30 MB nested JSON body to an unknown route',
      request: (_s: unknown, sentinel: string) => ({
        method: 'POST',
        path: `/no-such-route?${sentinel}`,
        headers: json,
        body: nestedBody(30 * MIB),
      }),
      expect: { status: 404 },
    },
    {
      name: `H2 a ${Math.round(route.bytes / MIB)} MiB nested JSON body to ${route.path}`,
      request: (_s: unknown, sentinel: string) => ({
        method: 'POST',
        path: `${route.path}?${sentinel}`,
        headers: json,
        body: nestedBody(route.bytes),
      }),
      expect: route.expect,
    },
    {
      name: `M5 ${FLOOD} idle connections from 127.0.0.2, then /healthz from 127.0.0.1`,
      request: () => ({ flood: { from: '127.0.0.2', connections: FLOOD } }),
      expect: { status: 200 },
      maxMs: 1000,
    },
  ].map((c) => ({ ...c, service, parserOnly: true }) as Case);
};
