import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ModelConfig } from '../config.js';
import { type Admission, AdmissionRefused, type Ticket } from '../tenancy/admission.js';
import { keyOf } from './auth.js';

declare module 'fastify' {
  interface FastifyInstance {
    admission: Admission;
  }
}

/** Token counts as any of the APIs report them. */
export interface ServedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
}

/** Usage from the raw JSON of a usage object (what the SSE relay keeps); zero when unreadable. */
export function parseUsage(raw: string | undefined): ServedUsage {
  if (!raw) return {};
  try {
    return JSON.parse(raw) as ServedUsage;
  } catch {
    return {};
  }
}

/** A request's ticket; the usage it reports when the response is over (complete, failed or abandoned). */
export interface AdmittedRequest {
  ticket: Ticket;
  /** Set the usage served so far; read when the response closes. */
  served: (usage: () => ServedUsage | undefined) => void;
}

/**
 * Admission for a generation route (chat, embeddings, messages): the key must allow the model, and the
 * estimated prompt plus `maxOutput` is reserved atomically. A refusal throws (with its 429 headers set on
 * the reply). The reservation is settled when the response closes — finished, failed, or abandoned by the
 * client — with the last usage the route reported.
 */
export async function admit(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelConfig,
  promptEstimate: number,
  maxOutput: number,
): Promise<AdmittedRequest> {
  let ticket: Ticket;
  try {
    ticket = await request.server.admission.admit({ key: keyOf(request), model, promptEstimate, maxOutput });
  } catch (error) {
    if (error instanceof AdmissionRefused) reply.headers(error.headers);
    throw error;
  }
  reply.headers(ticket.headers);
  let usage: () => ServedUsage | undefined = () => undefined;
  reply.raw.once('close', () => {
    const u = usage() ?? {};
    ticket.settle(u.prompt_tokens ?? u.input_tokens ?? 0, u.completion_tokens ?? u.output_tokens ?? 0);
  });
  return {
    ticket,
    served: (read) => {
      usage = read;
    },
  };
}
