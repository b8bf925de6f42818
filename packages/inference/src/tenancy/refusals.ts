import { HttpError } from '@atrium/core';
import type { PeriodWindow } from './period.js';
import { fromMicro } from './pricing.js';

/** A refused request: the error to send and the headers that go with it. */
export class AdmissionRefused extends HttpError {
  declare readonly headers: Record<string, string>;

  constructor(
    code: 'insufficient_quota' | 'rate_limit_exceeded' | 'invalid_api_key' | 'model_not_found' | 'request_too_large',
    message: string,
    headers: Record<string, string>,
    status = STATUS_BY_CODE[code] ?? 429,
  ) {
    super(status, code, message, code === 'model_not_found' ? 'model' : undefined, headers);
  }
}

const STATUS_BY_CODE: Record<string, number> = { invalid_api_key: 401, model_not_found: 404, request_too_large: 413 };

/** A budget refusal never asks a client to wait longer than this: clients that obey `retry-after` hang silently. */
export const BUDGET_RETRY_CAP_S = 60;
/** Our own header: when a key's budget resets (ISO 8601), since `retry-after` stops at a minute. */
export const BUDGET_RESET_HEADER = 'x-atrium-budget-reset';

export const isoTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
export const secondsUntil = (ms: number, now: number) => Math.max(1, Math.ceil((ms - now) / 1000));

export const modelNotAllowed = (id: string) =>
  new AdmissionRefused('model_not_found', `The model \`${id}\` does not exist or you do not have access to it.`, {});

/** What a key had in its period when a request did not fit it. */
export interface KeyState {
  budget: number;
  /** Used or held by requests in progress. */
  used: number;
  window: PeriodWindow;
}

/**
 * A key's budget refusal: "exceeded" only when the budget is spent, "would exceed" when this request needs
 * more than is left. Never retried by the SDKs (`x-should-retry: false`); `retry-after` at most a minute,
 * the reset time in the message and in `x-atrium-budget-reset`.
 */
export function budgetRefusal(state: KeyState, least: number, now: number): AdmissionRefused {
  const { budget, used, window } = state;
  const resets = Number.isFinite(window.end);
  const when = resets ? `The budget resets at ${isoTime(window.end)}.` : 'The budget does not reset.';
  const left = Math.max(0, budget - used);
  const message =
    left === 0
      ? `You exceeded the token budget of this API key: ${used} of ${budget} tokens used in the current period. ${when}`
      : `This request would exceed the token budget of this API key: it needs at least ${least} tokens (its prompt and one output token per choice) and ${left} of ${budget} are left in the current period (requests in progress hold what they may still use). ${when}${least > budget ? ' Shorten the prompt: it alone is longer than the budget.' : ''}`;
  return new AdmissionRefused('insufficient_quota', message, {
    'x-should-retry': 'false',
    ...(resets
      ? {
          [BUDGET_RESET_HEADER]: isoTime(window.end),
          'retry-after': String(Math.min(BUDGET_RETRY_CAP_S, secondsUntil(window.end, now))),
        }
      : {}),
  });
}

/** A per-minute window of a resource or a key when a request did not fit it. */
export interface MinuteState {
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  requestsUsed: number;
  tokensUsed: number;
  nextMinute: number;
}

/** What a resource had in its minute and credits when a request did not fit it. */
export interface ResourceState extends MinuteState {
  creditsLeft: number;
}

export const minuteTokensLeft = (state: MinuteState) =>
  state.tokensPerMinute === null ? Number.POSITIVE_INFINITY : state.tokensPerMinute - state.tokensUsed;

export const minuteRequestsFull = (state: MinuteState) =>
  state.requestsPerMinute !== null && state.requestsUsed + 1 > state.requestsPerMinute;

/**
 * A per-minute refusal of `subject` ("this inference resource", "this API key"), or undefined when its
 * per-minute limits admit `least` tokens: a request that fits once the minute turns is a 429 with an honest
 * `retry-after`; one that can never fit the tokens-per-minute limit is a 413 no client retries.
 */
export function minuteRefusal(
  state: MinuteState,
  least: number,
  now: number,
  subject: string,
): AdmissionRefused | undefined {
  const wait = secondsUntil(state.nextMinute, now);
  const retry = { 'retry-after': String(wait) };
  const { requestsPerMinute: rpm, tokensPerMinute: tpm } = state;
  if (minuteRequestsFull(state)) {
    return new AdmissionRefused(
      'rate_limit_exceeded',
      `Rate limit reached on requests per minute (RPM) for ${subject}: limit ${rpm}, used ${state.requestsUsed}. Please try again in ${wait}s.`,
      retry,
    );
  }
  if (tpm !== null && least > tpm) {
    return new AdmissionRefused(
      'request_too_large',
      `Request too large for the tokens per minute (TPM) limit of ${subject}: limit ${tpm}, this request needs at least ${least} tokens (its prompt and one output token per choice). Shorten the prompt; waiting does not help.`,
      { 'x-should-retry': 'false' },
    );
  }
  if (tpm !== null && state.tokensUsed + least > tpm) {
    return new AdmissionRefused(
      'rate_limit_exceeded',
      `Rate limit reached on tokens per minute (TPM) for ${subject}: limit ${tpm}, used ${state.tokensUsed}, this request needs at least ${least}. Please try again in ${wait}s.`,
      retry,
    );
  }
  return undefined;
}

/** A resource's refusal: its per-minute limits (see `minuteRefusal`), else no credits left, which is final. */
export function resourceRefusal(
  state: ResourceState,
  least: number,
  leastCredits: number,
  now: number,
): AdmissionRefused {
  return (
    minuteRefusal(state, least, now, 'this inference resource') ??
    new AdmissionRefused(
      'insufficient_quota',
      `The inference resource of this project has run out of credits: ${fromMicro(Math.max(0, state.creditsLeft))} credits left, this request needs at least ${fromMicro(leastCredits)}. Ask the project's PI or deputy to request more.`,
      { 'x-should-retry': 'false' },
    )
  );
}

/** Other requests took what was left between reading it and reserving it, several times over: rare, and passes soon. */
export const contended = () =>
  new AdmissionRefused(
    'rate_limit_exceeded',
    'Concurrent requests on this API key or inference resource took what was left while this request was admitted. Please try again in 1s.',
    { 'retry-after': '1' },
  );
