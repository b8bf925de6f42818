import type { Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { ModelConfig } from '../config.js';
import { findApiKey } from '../storage/api-keys.js';
import {
  leaseKeyTokens,
  leaseResource,
  type ResourceHeadroom,
  releaseKeyTokens,
  releaseResource,
} from '../storage/ledger.js';
import { findResource } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { type ActiveKey, allowsModel } from './active-key.js';
import { fittingPerChoice, leastTokens, type OutputAsk, wantedPerChoice } from './admission-rule.js';
import { ConcurrencySlots } from './concurrency-slots.js';
import { KeyRates } from './key-rates.js';
import type { KeyStore } from './key-store.js';
import { LeasedCounters } from './leased-counters.js';
import { periodAt } from './period.js';
import { chargeOf } from './pricing.js';
import {
  AdmissionRefused,
  budgetRefusal,
  contended,
  minuteRefusal,
  minuteRequestsFull,
  minuteTokensLeft,
  modelNotAllowed,
  resourceRefusal,
  secondsUntil,
} from './refusals.js';
import type { UsageRecorder } from './usage-recorder.js';

const MINUTE_MS = 60_000;
/** Rounds of reading what is left and reserving it before concurrent requests are said to have taken it. */
const FIT_ROUNDS = 3;
/**
 * A key leased this recently may have requests settling or leases on their way back (within a second, see
 * `leased-counters.ts`): its budget refusal is checked again every `SETTLING_STEP_MS` for this long first.
 */
const SETTLING_MS = 1_000;
const SETTLING_STEP_MS = 100;

export { AdmissionRefused, modelNotAllowed };

/** What one request holds until it is settled. */
interface Reservation {
  keyId: string;
  resourceId: string;
  /** The key's period the tokens were taken from. */
  periodStart: number;
  /** The resource's rate-limit minute the request was counted in. */
  minute: number;
  tokens: number;
  credits: number;
  /** Whether the request runs on one of the resource's concurrency slots. */
  slot: boolean;
  /** Whether the request was counted against the key's own per-minute limits. */
  keyRate: boolean;
  /**
   * Fitted to what was left rather than taken whole: what it does not use goes back to the database as soon
   * as it is settled, not with the next sweep, so that other processes see it.
   */
  fitted: boolean;
}

/** A request admitted against its key and resource; settle it exactly once with the usage actually served. */
export class Ticket {
  private settled = false;

  constructor(
    private readonly admission: Admission,
    private readonly reservation: Reservation,
    private readonly model: ModelConfig,
    /** `x-ratelimit-*` headers of the resource's per-minute limits, for the response. */
    readonly headers: Record<string, string>,
    /** The prompt and output (all choices) reserved. */
    readonly reserved: { prompt: number; output: number },
    /** The output each choice may produce. */
    readonly outputCap: number,
    /**
     * What the upstream is told as `max_tokens`: the cap, or undefined when the client set none and the
     * upstream's own default (what the context leaves its one choice) is within the reservation.
     */
    readonly upstreamCap: number | undefined,
  ) {}

  /** Replaces the reservation by the actual use (zero if nothing was served, at most the reservation) and records it. */
  settle(promptTokens: number, completionTokens: number): void {
    if (this.settled) return;
    this.settled = true;
    this.admission.settle(this.reservation, this.model, promptTokens, completionTokens);
  }
}

export interface AdmissionRequest {
  key: ActiveKey;
  model: ModelConfig;
  /** An upper bound of the prompt's tokens without a tokenizer, at most the context length. */
  promptBound: number;
  /** The output asked for (the context length comes from the model). */
  output: Omit<OutputAsk, 'contextLength'>;
  /** The prompt's tokens counted by the model's own tokenizer within `timeoutMs`; undefined when that failed. */
  countPrompt?: (timeoutMs: number) => Promise<number | undefined>;
}

export interface AdmissionOptions {
  /** Count the prompt with the model's tokenizer when its byte bound does not fit. */
  exactPromptCounting: boolean;
  /** How long counting may take before the byte bound is used instead. */
  tokenizeTimeoutMs: number;
}

const SWEEP_INTERVAL_MS = 250;

/** A resource's limits as its last lease returned them. */
type ResourceLimits = Pick<ResourceHeadroom, 'requestsPerMinute' | 'tokensPerMinute' | 'concurrentRequests'>;

/**
 * Budget admission: the model allowlist, then a prompt bound plus an output cap taken atomically from the
 * key's period budget, the resource's credits and its per-minute limits, and the resource's concurrency limit.
 *
 * The rule: a request first asks for its prompt's byte bound plus all the output it asks for (`max_tokens` × n,
 * else what the context leaves). When that does not fit, the prompt is counted by the model's tokenizer (the
 * byte bound when that fails or is off), what is left is read, and the request gets the largest output cap
 * that fits it; it is refused only when not even its prompt and one output token per choice fit. The cap is
 * what the upstream is told as `max_tokens`, so a request can never use more than it holds.
 *
 * Each process leases these counters from the database in chunks (see `lease.ts`, `leased-counters.ts`): a
 * lease is itself one atomic conditional statement, so the counters of all processes together never pass a
 * limit, and what a request does not use goes back to the lease when it is settled and to the database
 * within about a second.
 */
export class Admission {
  private readonly slots: ConcurrencySlots;
  private readonly limits = new Map<string, ResourceLimits>();
  private readonly keyBudgets: LeasedCounters;
  private readonly resources: LeasedCounters;
  private readonly keyRates: KeyRates;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly keys: KeyStore,
    private readonly usage: UsageRecorder,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    private readonly options: AdmissionOptions = { exactPromptCounting: true, tokenizeTimeoutMs: 1_000 },
  ) {
    this.keyBudgets = new LeasedCounters(
      [true],
      {
        lease: async (id, period, [tokens = 0], now) => {
          const left = await leaseKeyTokens(db, id, period, tokens, now);
          return left && [left.tokens];
        },
        release: (id, period, [tokens = 0], lastUse) => releaseKeyTokens(db, id, period, tokens, lastUse),
      },
      logger,
      clock,
    );
    this.resources = new LeasedCounters(
      [false, true, true],
      {
        lease: async (id, minute, [credits = 0, requests = 0, tokens = 0]) => {
          const headroom = await leaseResource(db, id, minute, [credits, requests, tokens]);
          if (headroom) this.limits.set(id, headroom);
          return headroom?.left;
        },
        release: (id, minute, [credits = 0, requests = 0, tokens = 0]) =>
          releaseResource(db, id, minute, [credits, requests, tokens]),
      },
      logger,
      clock,
    );
    this.keyRates = new KeyRates(db, logger, clock);
    this.slots = new ConcurrencySlots(db, logger, clock);
    this.sweeper = setInterval(() => void this.sweep(false), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async admit(request: AdmissionRequest): Promise<Ticket> {
    const { key, model } = request;
    if (!allowsModel(key, model.id)) throw modelNotAllowed(model.id);
    const now = this.clock();
    const ask: OutputAsk = { ...request.output, contextLength: model.contextLength };
    const base = {
      keyId: key.id,
      resourceId: key.resourceId,
      periodStart: periodAt(key.anchor, key.period, now).start,
      minute: now - (now % MINUTE_MS),
      keyRate: KeyRates.limits(key),
    };
    let prompt = request.promptBound;
    let perChoice = wantedPerChoice(prompt, ask);
    let r = this.reservation(base, model, prompt, ask.choices * perChoice);
    if (!(this.mayFit(r) && (await this.claim(r, 'acquire')))) {
      // What this process holds goes back first, so that what is read below is all there is.
      await this.releaseLeases(r);
      prompt = await this.countedPrompt(request);
      for (let round = 0, waited = 0; ; round++) {
        if (round === FIT_ROUNDS) throw contended();
        const fitted = await this.fit(key, model, base, prompt, ask, now);
        if (typeof fitted !== 'number') {
          if (!fitted.settling || waited >= SETTLING_MS) throw fitted.refusal;
          // Requests just served here or in another process are still giving back what they did not use.
          await new Promise((resolve) => setTimeout(resolve, SETTLING_STEP_MS));
          waited += SETTLING_STEP_MS;
          round--;
          continue;
        }
        perChoice = fitted;
        r = { ...this.reservation(base, model, prompt, ask.choices * perChoice), fitted: true };
        if (await this.claim(r, 'reserve')) break;
      }
    }
    const limit = this.limits.get(r.resourceId)?.concurrentRequests ?? null;
    r.slot = limit !== null;
    if (r.slot && !(await this.slots.acquire(r.resourceId))) {
      this.giveBack(r, 0, 0);
      throw new AdmissionRefused(
        'rate_limit_exceeded',
        `Rate limit reached for concurrent requests on this inference resource: limit ${limit}. Try again shortly.`,
        { 'retry-after': '1' },
      );
    }
    return new Ticket(
      this,
      r,
      model,
      this.rateLimitHeaders(r, now),
      { prompt, output: ask.choices * perChoice },
      perChoice,
      ask.requested === undefined && ask.choices === 1 && prompt + perChoice >= ask.contextLength
        ? undefined
        : perChoice,
    );
  }

  /** Gives what this process holds of a request's key and resource back to the database. */
  private async releaseLeases(r: Reservation): Promise<void> {
    await Promise.all([
      this.keyBudgets.release(r.keyId),
      r.keyRate && this.keyRates.release(r.keyId),
      this.resources.release(r.resourceId),
    ]);
  }

  private reservation(
    base: Pick<Reservation, 'keyId' | 'resourceId' | 'periodStart' | 'minute' | 'keyRate'>,
    model: ModelConfig,
    prompt: number,
    output: number,
  ): Reservation {
    return {
      ...base,
      tokens: prompt + output,
      credits: chargeOf(model.pricing, prompt, output),
      slot: false,
      fitted: false,
    };
  }

  /** Whether a reservation may fit what this process last knew was left (else it is fitted straight away). */
  private mayFit(r: Reservation): boolean {
    return (
      this.keyBudgets.mayFit(r.keyId, r.periodStart, [r.tokens]) &&
      (!r.keyRate || this.keyRates.mayFit(r.keyId, r.minute, r.tokens)) &&
      this.resources.mayFit(r.resourceId, r.minute, [r.credits, 1, r.tokens])
    );
  }

  /**
   * Takes a reservation, all of it or nothing: from the key's and the resource's leases (`acquire`, refilled
   * from the database as needed), or for a fitted one from the database directly (`reserve`).
   */
  private async claim(r: Reservation, how: 'acquire' | 'reserve'): Promise<boolean> {
    if (!(await this.keyBudgets[how](r.keyId, r.periodStart, [r.tokens]))) return false;
    if (!r.keyRate || (await this.keyRates[how](r.keyId, r.minute, r.tokens))) {
      if (await this.resources[how](r.resourceId, r.minute, [r.credits, 1, r.tokens])) return true;
      if (r.keyRate) this.keyRates.give(r.keyId, r.minute, r.tokens, 1);
    }
    this.keyBudgets.give(r.keyId, r.periodStart, [r.tokens]);
    return false;
  }

  /** The prompt's tokens by the model's tokenizer when that is on and answers in time, else its byte bound. */
  private async countedPrompt(request: AdmissionRequest): Promise<number> {
    if (!this.options.exactPromptCounting || !request.countPrompt) return request.promptBound;
    const counted = await request.countPrompt(this.options.tokenizeTimeoutMs);
    return counted === undefined ? request.promptBound : Math.min(counted, request.promptBound);
  }

  /**
   * The largest output per choice that what is left of the key and the resource (in the database and in this
   * process's leases) allows; else the refusal (not even the prompt and one token per choice fit), and whether
   * the key was leased so recently that what is missing may still be on its way back.
   */
  private async fit(
    key: ActiveKey,
    model: ModelConfig,
    base: Pick<Reservation, 'keyId' | 'resourceId' | 'periodStart' | 'minute' | 'keyRate'>,
    prompt: number,
    ask: OutputAsk,
    now: number,
  ): Promise<number | { refusal: AdmissionRefused; settling: boolean }> {
    const [row, resource, keyMinute] = await Promise.all([
      findApiKey(this.db, key.id),
      findResource(this.db, key.resourceId),
      base.keyRate ? this.keyRates.minuteState(key, base.minute) : undefined,
    ]);
    if (!row || row.revoked !== null) {
      this.keys.forget(key.id);
      throw new AdmissionRefused('invalid_api_key', 'Incorrect API key provided.', {});
    }
    const [heldTokens = 0] = this.keyBudgets.held(base.keyId, base.periodStart);
    const used = (row.period_start >= base.periodStart ? row.period_used : 0) - heldTokens;
    const keyLeft = row.budget_tokens === null ? Number.POSITIVE_INFINITY : row.budget_tokens - used;
    const [heldCredits = 0, heldRequests = 0, heldWindow = 0] = this.resources.held(base.resourceId, base.minute);
    const current = resource !== undefined && resource.window_minute >= base.minute;
    const state = {
      requestsPerMinute: resource?.requests_per_minute ?? null,
      tokensPerMinute: resource?.tokens_per_minute ?? null,
      requestsUsed: (current ? resource.window_requests : 0) - heldRequests,
      tokensUsed: (current ? resource.window_tokens : 0) - heldWindow,
      creditsLeft: resource ? resource.credits_total - resource.credits_used + heldCredits : 0,
      nextMinute: base.minute + MINUTE_MS,
    };
    const minuteLeft = Math.min(
      minuteTokensLeft(state),
      keyMinute ? minuteTokensLeft(keyMinute) : Number.POSITIVE_INFINITY,
    );
    const rpmFull = minuteRequestsFull(state) || (keyMinute !== undefined && minuteRequestsFull(keyMinute));
    const least = leastTokens(prompt, ask);
    const perChoice = rpmFull
      ? undefined
      : fittingPerChoice(
          prompt,
          ask,
          { tokens: Math.min(keyLeft, minuteLeft), credits: state.creditsLeft },
          model.pricing,
        );
    if (perChoice !== undefined) return perChoice;
    if (keyLeft < least) {
      const budget = row.budget_tokens ?? 0;
      return {
        refusal: budgetRefusal({ budget, used, window: periodAt(key.anchor, key.period, now) }, least),
        settling: row.last_used !== null && this.clock() - row.last_used < SETTLING_MS,
      };
    }
    return {
      refusal:
        (keyMinute && minuteRefusal(keyMinute, least, now, 'this API key')) ??
        resourceRefusal(state, least, chargeOf(model.pricing, prompt, ask.choices), now),
      settling: false,
    };
  }

  /**
   * Called by `Ticket.settle`. The reservation is an upper bound of what a request can use, so a model server
   * reporting more (media beyond their allowance, a template longer than estimated) is charged the reservation:
   * a key's period never passes its budget, nor a resource its credits.
   */
  settle(r: Reservation, model: ModelConfig, promptTokens: number, completionTokens: number): void {
    if (r.slot) this.slots.release(r.resourceId);
    const prompt = Math.min(promptTokens, r.tokens);
    const completion = Math.min(completionTokens, r.tokens - prompt);
    const credits = Math.min(chargeOf(model.pricing, prompt, completion), r.credits);
    if (prompt + completion < promptTokens + completionTokens) {
      this.logger.warn(
        { keyId: r.keyId, model: model.id, reserved: r.tokens, reported: promptTokens + completionTokens },
        'a model server reported more usage than the request reserved; charged the reservation',
      );
    }
    if (prompt + completion > 0) this.usage.record(r.keyId, model.id, this.clock(), prompt, completion, credits);
    this.giveBack(r, prompt + completion, credits);
    if (r.fitted) void this.releaseLeases(r);
  }

  /** Returns the difference between a reservation and the actual use to the leases. */
  private giveBack(r: Reservation, actualTokens: number, actualCredits: number): void {
    const tokens = r.tokens - actualTokens;
    this.keyBudgets.give(r.keyId, r.periodStart, [tokens]);
    if (r.keyRate) this.keyRates.give(r.keyId, r.minute, tokens);
    this.resources.give(r.resourceId, r.minute, [r.credits - actualCredits, 0, tokens]);
  }

  /** OpenAI's `x-ratelimit-*` headers for the resource's per-minute limits (none without limits). */
  private rateLimitHeaders(r: Reservation, now: number): Record<string, string> {
    const limits = this.limits.get(r.resourceId);
    const lease = this.resources.get(r.resourceId);
    if (!limits || !lease) return {};
    const reset = `${secondsUntil(r.minute + MINUTE_MS, now)}s`;
    const headers: Record<string, string> = {};
    const remaining = (i: number) => String(Math.max(0, (lease.headroom[i] ?? 0) + (lease.held[i] ?? 0)));
    if (limits.requestsPerMinute !== null) {
      headers['x-ratelimit-limit-requests'] = String(limits.requestsPerMinute);
      headers['x-ratelimit-remaining-requests'] = remaining(1);
      headers['x-ratelimit-reset-requests'] = reset;
    }
    if (limits.tokensPerMinute !== null) {
      headers['x-ratelimit-limit-tokens'] = String(limits.tokensPerMinute);
      headers['x-ratelimit-remaining-tokens'] = remaining(2);
      headers['x-ratelimit-reset-tokens'] = reset;
    }
    return headers;
  }

  private async sweep(all: boolean): Promise<void> {
    await Promise.all([
      this.keyBudgets.sweep(all),
      this.keyRates.sweep(all),
      this.resources.sweep(all),
      this.slots.sweep(all),
    ]);
  }

  /**
   * Gives this process's leases of a key and its resource back now, so their stored counters are exact as
   * far as this process goes, and drops the key from the key cache: after a revocation (the next request
   * here finds the key revoked; other processes within a second), and before a page shows the counters.
   */
  async release(keyId: string, resourceId: string): Promise<void> {
    this.keys.forget(keyId);
    await Promise.all([
      this.keyBudgets.release(keyId),
      this.keyRates.release(keyId),
      this.resources.release(resourceId),
    ]);
  }

  /** Gives every lease back to the database; the counters are then exact. */
  drain(): Promise<void> {
    return this.sweep(true);
  }

  /** Drains and stops the background sweep (before the database closes). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.drain();
  }
}
