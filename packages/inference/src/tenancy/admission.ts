import { HttpError, type Logger } from '@atrium/core';
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
import { ConcurrencySlots } from './concurrency-slots.js';
import { KeyRates } from './key-rates.js';
import type { KeyStore } from './key-store.js';
import { LeasedCounters } from './leased-counters.js';
import { periodAt } from './period.js';
import { chargeOf, fromMicro } from './pricing.js';
import type { UsageRecorder } from './usage-recorder.js';

const MINUTE_MS = 60_000;

/** A refused request: the error to send and the headers that go with it. */
export class AdmissionRefused extends HttpError {
  declare readonly headers: Record<string, string>;

  constructor(
    code: 'insufficient_quota' | 'rate_limit_exceeded' | 'invalid_api_key' | 'model_not_found',
    message: string,
    headers: Record<string, string>,
    status = code === 'invalid_api_key' ? 401 : code === 'model_not_found' ? 404 : 429,
  ) {
    super(status, code, message, code === 'model_not_found' ? 'model' : undefined, headers);
  }
}

export const modelNotAllowed = (id: string) =>
  new AdmissionRefused('model_not_found', `The model \`${id}\` does not exist or you do not have access to it.`, {});

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
    /** The prompt and output reserved. */
    readonly reserved: { prompt: number; output: number },
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
  promptEstimate: number;
  maxOutput: number;
}

const isoTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const secondsUntil = (ms: number, now: number) => String(Math.max(1, Math.ceil((ms - now) / 1000)));
const SWEEP_INTERVAL_MS = 250;

/** A resource's limits as its last lease returned them. */
type ResourceLimits = Pick<ResourceHeadroom, 'requestsPerMinute' | 'tokensPerMinute' | 'concurrentRequests'>;

/**
 * Budget admission: the model allowlist, then the estimated prompt plus the effective maximum output taken
 * atomically from the key's period budget, the resource's credits and its per-minute limits, and the
 * resource's concurrency limit. Each process leases these counters from the database in
 * chunks (see `lease.ts`, `leased-counters.ts`): a lease is itself one atomic conditional statement, so the
 * counters of all processes together never pass a limit, and what a request does not use goes back to the
 * lease when it is settled and to the database within about a second.
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
    const tokens = request.promptEstimate + request.maxOutput;
    const r: Reservation = {
      keyId: key.id,
      resourceId: key.resourceId,
      periodStart: periodAt(key.anchor, key.period, now).start,
      minute: now - (now % MINUTE_MS),
      tokens,
      credits: chargeOf(model.pricing, request.promptEstimate, request.maxOutput),
      slot: false,
      keyRate: KeyRates.limits(key),
    };
    if (!(await this.keyBudgets.acquire(r.keyId, r.periodStart, [tokens])))
      throw await this.keyRefusal(key, tokens, now);
    if (r.keyRate && !(await this.keyRates.acquire(key, r.minute, tokens))) {
      this.keyBudgets.give(r.keyId, r.periodStart, [tokens]);
      const refusal = await this.keyRates.refusal(key, r.minute, tokens, now);
      throw new AdmissionRefused('rate_limit_exceeded', refusal.message, refusal.headers);
    }
    if (!(await this.resources.acquire(r.resourceId, r.minute, [r.credits, 1, tokens]))) {
      this.keyBudgets.give(r.keyId, r.periodStart, [tokens]);
      if (r.keyRate) this.keyRates.give(r.keyId, r.minute, tokens);
      throw await this.resourceRefusal(key, r, now);
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
    return new Ticket(this, r, model, this.rateLimitHeaders(r, now), {
      prompt: request.promptEstimate,
      output: request.maxOutput,
    });
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

  private async keyRefusal(key: ActiveKey, requested: number, now: number): Promise<AdmissionRefused> {
    const row = await findApiKey(this.db, key.id);
    if (!row || row.revoked !== null) {
      this.keys.forget(key.id);
      return new AdmissionRefused('invalid_api_key', 'Incorrect API key provided.', {});
    }
    const window = periodAt(key.anchor, key.period, now);
    const used = row.period_start >= window.start ? row.period_used : 0;
    const budget = row.budget_tokens ?? 0;
    const resets = Number.isFinite(window.end)
      ? `The budget resets at ${isoTime(window.end)}.`
      : 'The budget does not reset.';
    const hint =
      requested > budget ? ' Lower max_tokens (or n): this request alone reserves more than the budget.' : '';
    return new AdmissionRefused(
      'insufficient_quota',
      `You exceeded the token budget of this API key: ${used} of ${budget} tokens used in the current period, this request reserves ${requested}. ${resets}${hint}`,
      {
        'x-should-retry': 'false',
        ...(Number.isFinite(window.end) ? { 'retry-after': secondsUntil(window.end, now) } : {}),
      },
    );
  }

  private async resourceRefusal(key: ActiveKey, r: Reservation, now: number): Promise<AdmissionRefused> {
    const resource = await findResource(this.db, key.resourceId);
    const nextMinute = r.minute + MINUTE_MS;
    if (resource) {
      const current = resource.window_minute === r.minute;
      const requests = current ? resource.window_requests : 0;
      const tokens = current ? resource.window_tokens : 0;
      const retry = { 'retry-after': secondsUntil(nextMinute, now) };
      if (resource.requests_per_minute !== null && requests + 1 > resource.requests_per_minute) {
        return new AdmissionRefused(
          'rate_limit_exceeded',
          `Rate limit reached on requests per minute (RPM) for this inference resource: limit ${resource.requests_per_minute}, used ${requests}. Please try again in ${retry['retry-after']}s.`,
          retry,
        );
      }
      if (resource.tokens_per_minute !== null && tokens + r.tokens > resource.tokens_per_minute) {
        const hint =
          r.tokens > resource.tokens_per_minute
            ? ' Lower max_tokens (or n): this request alone exceeds the limit.'
            : '';
        return new AdmissionRefused(
          'rate_limit_exceeded',
          `Rate limit reached on tokens per minute (TPM) for this inference resource: limit ${resource.tokens_per_minute}, used ${tokens}, requested ${r.tokens}. Please try again in ${retry['retry-after']}s.${hint}`,
          retry,
        );
      }
    }
    const left = resource ? fromMicro(resource.credits_total - resource.credits_used) : 0;
    return new AdmissionRefused(
      'insufficient_quota',
      `The inference resource of this project has run out of credits: ${left} credits left, this request reserves ${fromMicro(r.credits)}. Ask the project's PI or deputy to request more.`,
      { 'x-should-retry': 'false' },
    );
  }
}
