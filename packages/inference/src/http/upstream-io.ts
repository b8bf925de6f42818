import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeaders } from 'node:http';
import { HttpError } from '@atrium/core';
import type { FastifyReply } from 'fastify';
import { StreamBody } from '../router/stream-body.js';
import {
  clientClosed,
  type UpstreamResponse,
  type UpstreamSignal,
  type UpstreamStream,
} from '../router/upstream-group.js';
import { upstreamError } from '../wire/upstream-errors.js';

const ERROR_BODY_LIMIT = 64 * 1024;

class ClientSignal extends EventEmitter implements UpstreamSignal {
  aborted = false;
}

/**
 * A signal that fires when the client goes away before its response is complete. An EventEmitter rather than
 * an AbortController: an AbortSignal and undici's listener on it cost several times more per request.
 */
export function clientGone(reply: FastifyReply): UpstreamSignal {
  const signal = new ClientSignal();
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    signal.aborted = true;
    signal.emit('abort');
  });
  return signal;
}

/** The upstream's JSON answer; a body that breaks off or is not JSON is the upstream's failure, unless the client left. */
export async function readUpstreamJson(response: UpstreamResponse, signal: UpstreamSignal): Promise<unknown> {
  try {
    return await response.body.json();
  } catch {
    if (signal.aborted) throw clientClosed();
    throw new HttpError(502, 'upstream_error', 'the model server sent a broken response');
  }
}

/** Whether the upstream's answer is a stream's, its body handed over chunk by chunk. */
export const isStreamed = (response: UpstreamResponse | UpstreamStream): response is UpstreamStream =>
  response.body instanceof StreamBody;

/** Reads at most 64 KiB of an upstream error body (vLLM can echo megabytes of input) and re-wraps it. */
export async function throwUpstreamError(response: UpstreamResponse | UpstreamStream): Promise<never> {
  if (isStreamed(response)) throw upstreamError(response.statusCode, await response.body.text(ERROR_BODY_LIMIT));
  let text = '';
  for await (const chunk of response.body) {
    text += String(chunk);
    if (text.length > ERROR_BODY_LIMIT) break;
  }
  response.body.destroy();
  throw upstreamError(response.statusCode, text);
}

const STREAM_FAILED =
  'data: {"error":{"message":"the model server stopped responding mid-stream","type":"server_error","param":null,"code":"upstream_error"}}\n\ndata: [DONE]\n\n';

/** Turns upstream SSE bytes into the client's stream (the OpenAI relay, or a translation into another API's). */
export interface StreamRelay {
  /** What to write for an upstream chunk; empty when nothing is complete yet. */
  push(chunk: Buffer): string | Buffer;
  /** Written when the upstream body ends. */
  readonly incomplete: string | Buffer;
  /** Written when the upstream body breaks off; default: OpenAI's in-band error and `[DONE]`. */
  readonly broken?: string;
  /** Written when the stream has been silent for a while; default: an SSE comment, which clients skip. */
  readonly keepalive?: string;
}

const KEEPALIVE = ': keep-alive\n\n';

/**
 * Writes the client's SSE response straight to the socket: upstream events through the relay, with
 * backpressure; if the upstream breaks off after the 200 was sent, an in-band error event and `[DONE]`, as
 * the OpenAI SDK expects; after `keepaliveMs` to twice that of silence (a long prompt being read), a
 * keep-alive (a flag per write rather than a timer reset, which costs more on every chunk). When the
 * client goes away, the upstream body is destroyed (and its request with it). Fastify's onResponse hooks
 * (metrics, access log) still run for a hijacked reply.
 */
export function relayStream(
  reply: FastifyReply,
  response: UpstreamStream,
  relay: StreamRelay,
  keepaliveMs: number,
): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
  });
  const body = response.body;
  let wrote = false;
  const keepalive = setInterval(() => {
    if (!wrote && !raw.writableEnded) raw.write(relay.keepalive ?? KEEPALIVE);
    wrote = false;
  }, keepaliveMs);
  keepalive.unref();
  const resume = () => body.resume();
  body.consume({
    data(chunk) {
      const out = relay.push(chunk);
      if (out.length === 0) return;
      wrote = true;
      if (!raw.write(out)) {
        body.pause();
        raw.once('drain', resume);
      }
    },
    end() {
      clearInterval(keepalive);
      const rest = relay.incomplete;
      raw.end(rest.length > 0 ? rest : undefined);
    },
    error() {
      clearInterval(keepalive);
      if (!raw.writableEnded) raw.end(relay.broken ?? STREAM_FAILED);
    },
  });
  raw.once('close', () => {
    clearInterval(keepalive);
    body.destroy();
  });
}
