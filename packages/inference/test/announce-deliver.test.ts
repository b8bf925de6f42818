import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveChannels } from '../src/announce/channels.js';
import { DeliveryError, deliver } from '../src/announce/deliver.js';

const TOKEN = 'T0003/B0003/endless-secret-4410';
const open = new Set<ServerResponse>();
/** A webhook that refuses with a 500 and then streams its error page without end. */
const endless = createServer((_request, response) => {
  open.add(response);
  response.writeHead(500, { 'content-type': 'text/plain' });
  response.write(`overloaded ${'x'.repeat(8_192)}`);
});
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/services/${TOKEN}`;
});

afterAll(async () => {
  for (const response of open) response.destroy();
  await new Promise((resolve) => endless.close(resolve));
});

it('reads only the start of an answer: an endless error body fails the attempt at once, with its text', async () => {
  const [channel] = resolveChannels([{ type: 'slack', name: 'endless', url }]);
  const announcement = { id: 1, kind: 'incident', title: 'Down', body: '', starts: 0, ends: 1, created: 0 } as const;
  const error = await deliver(channel as NonNullable<typeof channel>, 1, announcement, {
    statusPageUrl: undefined,
    timeoutMs: 30_000,
    signal: new AbortController().signal,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DeliveryError);
  expect((error as DeliveryError).message).toMatch(/^127\.0\.0\.1:\d+: HTTP 500 overloaded x{100}/);
  expect((error as DeliveryError).permanent).toBe(false);
  expect((error as DeliveryError).message).not.toContain(TOKEN);
}, 10_000);
