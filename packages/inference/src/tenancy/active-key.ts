import { HttpError } from '@atrium/core';
import type { ApiKeyRow } from '../storage/api-keys.js';
import type { GrantCoverage } from '../storage/projects.js';
import { parseResetPeriod, type ResetPeriod } from './period.js';

/** What the gateway needs of a key on every request, as read from the database (re-read within a second). */
export interface ActiveKey {
  id: string;
  resourceId: string;
  projectId: string;
  alias: string;
  budgetTokens: number | null;
  period: ResetPeriod | undefined;
  /** The creation time: periods are counted from it. */
  anchor: number;
  /** Undefined: every model. */
  allowedModels: ReadonlySet<string> | undefined;
  /** Per-key limits; null: none. */
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  /** The key is refused from this instant on; null: no expiry. */
  expires: number | null;
  /** The project's grants as they were when the key was read. */
  grant: GrantCoverage;
}

export function toActiveKey(row: ApiKeyRow, grant: GrantCoverage): ActiveKey {
  return {
    id: row.id,
    resourceId: row.resource_id,
    projectId: row.project_id,
    alias: row.alias,
    budgetTokens: row.budget_tokens,
    period: row.reset_period ? parseResetPeriod(row.reset_period) : undefined,
    anchor: row.created,
    allowedModels: row.allowed_models ? new Set(JSON.parse(row.allowed_models) as string[]) : undefined,
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: row.tokens_per_minute,
    expires: row.expires,
    grant,
  };
}

export const allowsModel = (key: ActiveKey, model: string): boolean =>
  key.allowedModels === undefined || key.allowedModels.has(model);

/** To the second, as the other refusals give times. */
const isoTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Until when the key may be used: the end of the project's active grant or the key's expiry, the earlier. */
export function accessUntil(key: ActiveKey): number {
  const grantEnd = key.grant.activeUntil ?? Number.NEGATIVE_INFINITY;
  return key.expires === null ? grantEnd : Math.min(grantEnd, key.expires);
}

/** Why a key is refused at `now` although it exists and is not revoked (its expiry, its project's grant); undefined: usable. */
export function accessRefusal(key: ActiveKey, now: number): HttpError | undefined {
  if (key.expires !== null && now >= key.expires)
    return new HttpError(
      401,
      'expired_api_key',
      `This API key expired at ${isoTime(key.expires)}. A member of the project can create a new key in the web UI.`,
    );
  const { activeUntil, lastEnded } = key.grant;
  if (activeUntil !== null && now < activeUntil) return undefined;
  const ended = activeUntil ?? lastEnded;
  return new HttpError(
    403,
    'grant_ended',
    ended !== null && ended <= now
      ? `The project's grant ended at ${isoTime(ended)}: its API keys are refused until a new grant is active. Ask the project's PI to renew the grant.`
      : "The project has no active grant: its API keys are refused until a grant is active. Ask the project's PI.",
  );
}
