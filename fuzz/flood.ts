import { connect, type Socket } from 'node:net';
import type { Flood } from './case.js';
import { type Answer, send } from './send.js';

/** Connections opened at once; the next batch waits until the server has accepted or closed these. */
const BATCH = 100;
/** How long one batch may take to be accepted or refused. */
const SETTLE_MS = 5000;

/** Opens `count` idle connections from `from`; resolves once each is open or closed, with the closed ones counted. */
function openBatch(port: number, from: string, count: number, sockets: Socket[], closed: { count: number }) {
  return new Promise<void>((resolve, reject) => {
    let settled = 0;
    const timer = setTimeout(() => reject(new Error(`${count} connections not settled in ${SETTLE_MS} ms`)), SETTLE_MS);
    for (let i = 0; i < count; i++) {
      const socket = connect({ host: '127.0.0.1', port, localAddress: from });
      let counted = false;
      const settle = () => {
        if (counted) return;
        counted = true;
        if (++settled === count) {
          clearTimeout(timer);
          resolve();
        }
      };
      socket.on('error', () => undefined);
      socket.once('connect', settle);
      socket.once('close', () => {
        closed.count++;
        settle();
      });
      sockets.push(socket);
    }
  });
}

/**
 * Opens `flood.connections` idle connections from `flood.from` (another loopback address), in batches, then asks
 * for `/healthz` from 127.0.0.1 on a fresh connection: that answer is the case's. Its body also says how many of
 * the flood's connections the server kept.
 */
export async function sendFlood(origin: string, flood: Flood): Promise<Answer> {
  const port = Number(new URL(origin).port);
  const sockets: Socket[] = [];
  const closed = { count: 0 };
  try {
    for (let opened = 0; opened < flood.connections; opened += BATCH) {
      await openBatch(port, flood.from, Math.min(BATCH, flood.connections - opened), sockets, closed);
    }
    // The server closes what it refuses right after accepting it: give the last closes a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = await send(origin, { method: 'GET', path: '/healthz' }, 5000);
    const kept = flood.connections - closed.count;
    return { ...health, body: `${health.body} (the server kept ${kept} of the flood's connections)` };
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}
