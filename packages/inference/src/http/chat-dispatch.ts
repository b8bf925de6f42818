import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Catalogue, ServedModel } from '../catalogue.js';
import type { UpstreamResponse, UpstreamSignal, UpstreamStream } from '../router/upstream-group.js';
import { allowsModel } from '../tenancy/active-key.js';
import { estimateChatPromptTokens, reservedPromptTokens } from '../tenancy/estimate.js';
import { type ChatRequest, requestedChoices, requestedOutputTokens } from '../wire/chat.js';
import { validateChatRequest } from '../wire/chat-validation.js';
import { toUpstreamChatBody } from '../wire/upstream-request.js';
import { type AdmittedRequest, admit } from './admission.js';
import { keyOf } from './auth.js';
import { modelNotFound } from './model-routes.js';
import { promptCounter } from './prompt-count.js';
import { clientGone, throwUpstreamError } from './upstream-io.js';

/** The served model a request names, if its key may use it; else the same 404 as for an unknown model. */
export function servedModelFor(catalogue: Catalogue, request: FastifyRequest, id: string): ServedModel {
  const served = catalogue.get(id);
  if (!served || !allowsModel(keyOf(request), id)) throw modelNotFound(id);
  return served;
}

export interface ChatDispatch {
  admitted: AdmittedRequest;
  /**
   * The upstream's 200 answer (anything else has been thrown as the gateway's error): for a stream, its body
   * handed over chunk by chunk.
   */
  upstream: UpstreamResponse | UpstreamStream;
  /** Fires when the client goes away. */
  signal: UpstreamSignal;
  /** The prompt tokens reserved: the tokenizer's count, else the byte bound. */
  promptEstimate: number;
}

/**
 * What every chat-shaped route (`/v1/chat/completions`, `/v1/messages`) does with an OpenAI chat request:
 * validation against the model, admission against the key's budget (which caps the output the upstream may
 * produce), and the upstream call.
 */
export async function dispatchChat(
  request: FastifyRequest,
  reply: FastifyReply,
  served: ServedModel,
  chat: ChatRequest,
  allowedMediaHosts: ReadonlySet<string>,
  /** The JSON text `chat` was parsed from, when it is the client's own body. */
  raw?: string,
): Promise<ChatDispatch> {
  const estimate = estimateChatPromptTokens(chat);
  const carriesUrls = validateChatRequest(chat, served.config, allowedMediaHosts, estimate);
  const admitted = await admit(request, reply, served.config, {
    promptBound: reservedPromptTokens(estimate, served.config.contextLength),
    output: { choices: requestedChoices(chat), requested: requestedOutputTokens(chat) },
    countPrompt: promptCounter(served, chat, reply),
  });
  const signal = clientGone(reply);
  const upstreamRequest = {
    path: '/v1/chat/completions',
    body: toUpstreamChatBody(chat, served.upstreamName, carriesUrls ? undefined : raw, admitted.ticket.upstreamCap),
    signal,
  };
  const upstream = await (chat.stream === true
    ? served.group.stream(upstreamRequest)
    : served.group.dispatch(upstreamRequest));
  if (upstream.statusCode !== 200) await throwUpstreamError(upstream);
  return { admitted, upstream, signal, promptEstimate: admitted.ticket.reserved.prompt };
}
