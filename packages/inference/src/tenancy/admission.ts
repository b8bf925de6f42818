import { HttpError, type Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { ModelConfig } from '../config.js';
import { findApiKey } from '../storage/api-keys.js';
import { type Reservation, reserve } from '../storage/ledger.js';
import { findResource } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { type ActiveKey, allowsModel } from './active-key.js';
import type { KeyStore } from './key-store.js';
import { periodAt } from './period.js';
import { chargeOf, fromMicro } from './pricing.js';
import { SettlementBatcher } from './settlements.js';
import type { UsageRecorder } from './usage-recorder.js';

const MINUTE_MS = 60_000;

/** A refused request: the error to send and the headers that go with it. */
export class AdmissionRefused extends HttpError {
  constructor(
    code: 'insufficient_quota' | 'rate_limit_exceeded' | 'invalid_api_key' | 'model_not_found',
    message: string,
    readonly headers: Record<string, string>,
    status = code === 'invalid_api_key' ? 401 : code === 'model_not_found' ? 404 : 429,
  ) {
    super(status, code, message, code === 'model_not_found' ? 'model' : undefined);
  }
}

export const modelNotAllowed = (id: string) =>
  new AdmissionRefused('model_not_found', `The model \`${id}\` does not exist or you do not have access to it.`, {});

/** A request admitted against its key and resource; settle it exactly once with the usage actually served. */
export class Ticket {
  private settled = false;

  constructor(
    private readonly admission: Admission,
    private readonly reservation: Reservation,
    private readonly model: ModelConfig,
  ) {}

  /** Replaces the reservation by the actual use (zero if nothing was served) and records it. */
  settle(promptTokens: number, completionTokens: number): Promise<void> {
    if (this.settled) return Promise.resolve();
    this.settled = true;
    return this.admission.settle(this.reservation, this.model, promptTokens, completionTokens);
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

/**
 * Budget admission: the model allowlist, then one atomic reservation of the estimated prompt plus the
 * effective maximum output against the key's period budget, the resource's credits and its per-minute
 * limits (see `ledger.ts`), and the resource's concurrency limit in this process.
 */
export class Admission {
  private readonly inFlight = new Map<string, number>();
  private readonly settlements: SettlementBatcher;

  constructor(
    private readonly db: Kysely<InferenceDatabase>,
    private readonly keys: KeyStore,
    private readonly usage: UsageRecorder,
    logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    this.settlements = new SettlementBatcher(db, logger);
  }

  async admit(request: AdmissionRequest): Promise<Ticket> {
    const { key, model } = request;
    if (!allowsModel(key, model.id)) throw modelNotAllowed(model.id);
    const now = this.clock();
    const tokens = request.promptEstimate + request.maxOutput;
    const prices = model.pricing;
    const reservation: Reservation = {
      keyId: key.id,
      resourceId: key.resourceId,
      periodStart: periodAt(key.anchor, key.period, now).start,
      minute: now - (now % MINUTE_MS),
      tokens,
      credits: chargeOf(prices, request.promptEstimate, request.maxOutput),
    };
    const outcome = await reserve(this.db, reservation, now);
    if (outcome === 'key') throw await this.keyRefusal(key, tokens, now);
    if (outcome === 'resource') throw await this.resourceRefusal(key, reservation, now);
    const limit = await this.concurrencyLimit(key.resourceId);
    const running = this.inFlight.get(key.resourceId) ?? 0;
    if (limit !== null && running >= limit) {
      await this.settlements.add(reservation, 0, 0);
      throw new AdmissionRefused(
        'rate_limit_exceeded',
        `Rate limit reached for concurrent requests on this inference resource: limit ${limit}. Try again shortly.`,
        { 'retry-after': '1' },
      );
    }
    this.inFlight.set(key.resourceId, running + 1);
    return new Ticket(this, reservation, model);
  }

  /** Called by `Ticket.settle`. */
  settle(r: Reservation, model: ModelConfig, promptTokens: number, completionTokens: number): Promise<void> {
    this.inFlight.set(r.resourceId, (this.inFlight.get(r.resourceId) ?? 1) - 1);
    const credits = chargeOf(model.pricing, promptTokens, completionTokens);
    if (promptTokens + completionTokens > 0)
      this.usage.record(r.keyId, model.id, this.clock(), promptTokens, completionTokens, credits);
    return this.settlements.add(r, promptTokens + completionTokens, credits);
  }

  /** Waits for the settlements under way (before the database closes). */
  drain(): Promise<void> {
    return this.settlements.drain();
  }

  private readonly limits = new Map<string, { value: number | null; until: number }>();

  /** The resource's concurrency limit, re-read at most every 10 s. */
  private async concurrencyLimit(resourceId: string): Promise<number | null> {
    const now = this.clock();
    const cached = this.limits.get(resourceId);
    if (cached && cached.until > now) return cached.value;
    const resource = await findResource(this.db, resourceId);
    const value = resource?.concurrent_requests ?? null;
    this.limits.set(resourceId, { value, until: now + 10_000 });
    return value;
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
    const hint = requested > budget ? ' Lower max_tokens: this request alone reserves more than the budget.' : '';
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
          r.tokens > resource.tokens_per_minute ? ' Lower max_tokens: this request alone exceeds the limit.' : '';
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
