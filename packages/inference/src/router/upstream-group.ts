import type { EventEmitter } from 'node:events';
import { HttpError } from '@atrium/core';
import type { Dispatcher, Pool } from 'undici';
import { pickReplica } from './balancer.js';
import type { Replica } from './replica.js';
import { StreamBody } from './stream-body.js';

export interface UpstreamResponse {
  statusCode: number;
  body: Dispatcher.ResponseData['body'];
}

export interface UpstreamStream {
  statusCode: number;
  body: StreamBody;
}

/** An answer as a replica sent it: its status and body, how to let it go, and how to learn it is done. */
interface Sent<B> {
  statusCode: number;
  body: B;
  discard(): Promise<void>;
  onClose(listener: () => void): void;
}

/** Tells a request that its client has gone: an EventEmitter emitting 'abort', which undici takes as a signal. */
export type UpstreamSignal = EventEmitter & { readonly aborted: boolean };

export interface UpstreamRequest {
  path: string;
  body: string;
  signal: UpstreamSignal;
}

const HEALTH_TIMEOUT_MS = 2_000;
/** An overloaded model: streams end every few seconds under load, so a retry soon has a fair chance. */
const OVERLOAD_RETRY_S = 2;

/** Nobody is left to answer; a status below 500 keeps an ordinary disconnect out of the error log. */
export const clientClosed = () => new HttpError(499, 'client_closed_request', 'the client closed the request');

/**
 * The replicas serving one model. A request goes to the least-loaded replica; if the connection fails or the
 * replica answers 5xx before anything was relayed to the client, it is retried once on each other replica.
 */
export class UpstreamGroup {
  private cursor = 0;
  private healthTimer: NodeJS.Timeout | undefined;
  private readonly headers: Record<string, string>;

  constructor(
    readonly modelId: string,
    readonly replicas: readonly Replica[],
    apiKey: string | undefined,
  ) {
    this.headers = { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
  }

  /** The upstream's answer, its body as undici's readable stream. */
  dispatch(request: UpstreamRequest): Promise<UpstreamResponse> {
    return this.attempt(request, async (client) => {
      const { statusCode, body } = await client.request({
        method: 'POST',
        path: request.path,
        headers: this.headers,
        body: request.body,
        signal: request.signal,
      });
      return {
        statusCode,
        body,
        discard: () => body.dump().catch(() => undefined),
        onClose: (listener) => body.once('close', listener),
      };
    });
  }

  /** The upstream's answer, its body handed over chunk by chunk as it arrives (a stream to relay). */
  stream(request: UpstreamRequest): Promise<UpstreamStream> {
    return this.attempt(request, async (client) => {
      const { statusCode, body } = await StreamBody.send(
        client,
        { method: 'POST', path: request.path, headers: this.headers, body: request.body },
        request.signal,
      );
      return {
        statusCode,
        body,
        discard: async () => body.destroy(),
        onClose: (listener) => body.onClose(listener),
      };
    });
  }

  /** Sends `request` to a replica, and on a failed connection or a 5xx answer to each other one in turn. */
  private async attempt<B>(request: UpstreamRequest, send: (client: Pool) => Promise<Sent<B>>) {
    const tried = new Set<Replica>();
    this.cursor = (this.cursor + 1) % this.replicas.length;
    for (;;) {
      const replica = pickReplica(this.replicas, Date.now(), tried, this.cursor);
      const client = replica?.client;
      if (!replica || !client) break;
      tried.add(replica);
      if (!(await replica.enter(request.signal).catch(() => Promise.reject(clientClosed())))) throw this.overloaded();
      let response: Sent<B>;
      try {
        response = await send(client);
      } catch {
        replica.leave();
        if (request.signal.aborted) throw clientClosed();
        replica.failed('connection');
        continue;
      }
      if (response.statusCode >= 500) {
        replica.failed('status');
        if (tried.size < this.replicas.length) {
          replica.leave();
          await response.discard();
          continue;
        }
      } else replica.succeeded();
      response.onClose(() => replica.leave());
      return { statusCode: response.statusCode, body: response.body };
    }
    throw new HttpError(
      503,
      'upstream_unavailable',
      `model '${this.modelId}' is unavailable: no model server answered; try again shortly`,
    );
  }

  private overloaded(): HttpError {
    return new HttpError(
      503,
      'upstream_overloaded',
      `model '${this.modelId}' is overloaded: every connection to its model servers is busy and none came free in time; try again shortly`,
      undefined,
      { 'retry-after': String(OVERLOAD_RETRY_S) },
    );
  }

  /** Probes every replica's `GET /health`; a healthy answer lifts an ejection, anything else imposes one. */
  async checkHealth(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (replica) => {
        const client = replica.client;
        if (!client) return;
        try {
          const { statusCode, body } = await client.request({
            method: 'GET',
            path: '/health',
            headersTimeout: HEALTH_TIMEOUT_MS,
            bodyTimeout: HEALTH_TIMEOUT_MS,
          });
          await body.dump();
          if (statusCode === 200) replica.succeeded();
          else replica.failed('connection');
        } catch {
          replica.failed('connection');
        }
      }),
    );
  }

  startHealthChecks(intervalMs: number): void {
    let running = false;
    this.healthTimer = setInterval(() => {
      if (running) return;
      running = true;
      void this.checkHealth().finally(() => {
        running = false;
      });
    }, intervalMs);
    this.healthTimer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.healthTimer);
    await Promise.all(this.replicas.map((r) => r.close()));
  }
}
