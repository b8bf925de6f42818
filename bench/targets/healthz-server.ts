// A server for the healthz benchmark, in its own process: `bare` (node:http answering the healthz body to
// every request) or `atrium` (the bench service with its default logging). Prints `PORT <n>` once listening.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchConfigSchema, buildBenchApp } from '@atrium/bench';
import { createLogger } from '@atrium/core';

const kind = process.argv[2];
const body = JSON.stringify({ status: 'ok', service: 'bench' });

async function start(): Promise<number> {
  if (kind === 'bare') {
    const server = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }
  const app = await buildBenchApp(benchConfigSchema.parse({ port: 0 }), {
    logger: createLogger({ level: 'info' }),
    dataDir: mkdtempSync(join(tmpdir(), 'atrium-bench-healthz-')),
    accessLog: true,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

process.stderr.write(`PORT ${await start()}\n`);
