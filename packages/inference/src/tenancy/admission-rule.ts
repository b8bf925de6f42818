import { chargeOf, type Prices } from './pricing.js';

/** What a request asks to produce. */
export interface OutputAsk {
  /** Choices (`n`), each producing up to the output cap; 0 for a request without output (embeddings). */
  choices: number;
  /** `max_completion_tokens` / `max_tokens` per choice; undefined: whatever the context leaves. */
  requested: number | undefined;
  contextLength: number;
}

/** What is left for a request: tokens (the least of the key's budget and the per-minute tokens) and micro-credits. */
export interface Room {
  tokens: number;
  credits: number;
}

/**
 * The output per choice a request asks for with a prompt of `prompt` tokens: its own limit (at most the
 * context length), else what the context leaves.
 */
export const wantedPerChoice = (prompt: number, ask: OutputAsk): number =>
  ask.choices === 0 ? 0 : Math.min(ask.requested ?? Math.max(1, ask.contextLength - prompt), ask.contextLength);

/** The least a request can be served with: its prompt and one output token per choice. */
export const leastTokens = (prompt: number, ask: OutputAsk): number => prompt + ask.choices;

/**
 * The largest output per choice, at most the wanted one, whose prompt and output fit `room` in tokens and
 * credits; undefined when not even one token per choice fits (a request without output: its prompt).
 */
export function fittingPerChoice(prompt: number, ask: OutputAsk, room: Room, prices: Prices): number | undefined {
  if (room.tokens < leastTokens(prompt, ask) || chargeOf(prices, prompt, ask.choices) > room.credits) return undefined;
  if (ask.choices === 0) return 0;
  let cap = Math.min(wantedPerChoice(prompt, ask), Math.floor((room.tokens - prompt) / ask.choices));
  if (prices.outputPerMillion > 0) {
    const perChoiceCredits = ask.choices * prices.outputPerMillion;
    cap = Math.min(cap, Math.floor((room.credits - prompt * prices.inputPerMillion) / perChoiceCredits));
    // Floating point may leave the division one token over the rounded-up charge.
    while (cap > 1 && chargeOf(prices, prompt, ask.choices * cap) > room.credits) cap--;
  }
  return cap;
}
