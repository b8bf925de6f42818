import { request } from 'node:http';

/** What `npm run fuzz` holds every service to: any answer within 2 s, `/healthz` within 1 s meanwhile. */
export const NO_STALL = { answerMs: 2000, healthzMs: 1000 } as const;

export interface BodyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** From sending the request to the end of the answer. */
  ms: number;
}

/**
 * POSTs `body` on a fresh connection (JSON unless `headers` say otherwise). An answer that comes before the
 * whole body was sent counts: the server may close while the rest is still being written.
 */
export function postBody(
  base: string,
  path: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<BodyAnswer> {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const client = request({
      host: hostname,
      port,
      method: 'POST',
      path,
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
    });
    let answered = false;
    client.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - started,
        }),
      );
    });
    client.on('error', (error) => {
      if (!answered) reject(error);
    });
    client.end(body);
  });
}

/** Runs `work` while asking for `/healthz` every 20 ms on fresh connections; answers the slowest of them too. */
export async function whileProbingHealth<T>(
  base: string,
  work: () => Promise<T>,
): Promise<{ result: T; worstHealthzMs: number }> {
  let done = false;
  let worst = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${base}/healthz`, { headers: { connection: 'close' } });
      await response.text();
      worst = Math.max(worst, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { result: await work(), worstHealthzMs: worst };
  } finally {
    done = true;
    await probing;
  }
}

/** `[[[…]]]`, `bytes` long: what costs JSON.parse the most per byte. */
export const nestedJson = (bytes: number): Buffer =>
  Buffer.concat([Buffer.alloc(Math.floor(bytes / 2), '['), Buffer.alloc(Math.floor(bytes / 2), ']')]);
