import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ModelConfig } from '../config.js';
import { type Admission, AdmissionRefused, type AdmissionRequest, type Ticket } from '../tenancy/admission.js';
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

/** Usage from the raw JSON of a usage object (what the SSE relay keeps); undefined when none or unreadable. */
export function parseUsage(raw: string | undefined): ServedUsage | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as ServedUsage;
  } catch {
    return undefined;
  }
}

/** The usage object of an upstream JSON answer, if it has one. */
export function reportedUsage(body: unknown): ServedUsage | undefined {
  const usage = typeof body === 'object' && body !== null ? (body as { usage?: unknown }).usage : undefined;
  return typeof usage === 'object' && usage !== null ? (usage as ServedUsage) : undefined;
}

/** A token count the upstream reported; anything but a non-negative number counts as zero. */
const count = (value: unknown): number => (typeof value === 'number' && value >= 0 ? value : 0);

/** A request's ticket; the usage it reports when the response is over (complete, failed or abandoned). */
export interface AdmittedRequest {
  ticket: Ticket;
  /**
   * Marks the response as served and sets how to read its usage when it closes (undefined: the model server
   * reported none). Nothing is charged for a request that never calls it.
   */
  served: (usage: () => ServedUsage | undefined) => void;
}

/**
 * Admission for a generation route (chat, embeddings, messages): the key must allow the model, and the
 * prompt plus an output cap are reserved atomically (see `Admission`). A refusal throws (with its headers set
 * on the reply). The reservation is settled when the response closes — finished, failed, or abandoned by the
 * client — with the last usage the route reported; without any, a finished response is charged its
 * reservation and an abandoned one its prompt.
 */
export async function admit(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelConfig,
  ask: Omit<AdmissionRequest, 'key' | 'model'>,
): Promise<AdmittedRequest> {
  let ticket: Ticket;
  try {
    ticket = await request.server.admission.admit({ key: keyOf(request), model, ...ask });
  } catch (error) {
    if (error instanceof AdmissionRefused) reply.headers(error.headers);
    throw error;
  }
  reply.headers(ticket.headers);
  let read: (() => ServedUsage | undefined) | undefined;
  reply.raw.once('close', () => {
    if (!read) return ticket.settle(0, 0);
    const u = read();
    if (u)
      return ticket.settle(count(u.prompt_tokens ?? u.input_tokens), count(u.completion_tokens ?? u.output_tokens));
    ticket.settle(ticket.reserved.prompt, reply.raw.writableFinished ? ticket.reserved.output : 0);
  });
  return {
    ticket,
    served: (usage) => {
      read = usage;
    },
  };
}
