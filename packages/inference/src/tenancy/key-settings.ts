import type { ApiKeyTable } from '../storage/schema.js';
import { invalid } from './errors.js';
import { parseResetPeriod } from './period.js';

/** What a key's owner may set, at creation or later; undefined: not given (at creation: none). */
export interface KeySettings {
  alias?: string | undefined;
  /** null: no budget. */
  budgetTokens?: number | null | undefined;
  /** `day`, `week`, `month` or `<N>d`; null or blank: the budget never resets. */
  resetPeriod?: string | null | undefined;
  /** Undefined: unchanged (at creation: every model); empty: every model. */
  allowedModels?: readonly string[] | undefined;
  /** The instant the key is refused from (see `dates.ts` for end-of-day dates); null: no expiry. */
  expires?: number | null | undefined;
  /** Per-key limits; null: none (the resource's limits apply anyway). */
  requestsPerMinute?: number | null | undefined;
  tokensPerMinute?: number | null | undefined;
}

type SettingColumns = Pick<
  ApiKeyTable,
  'budget_tokens' | 'reset_period' | 'allowed_models' | 'expires' | 'requests_per_minute' | 'tokens_per_minute'
>;

function positiveWhole(value: number | null | undefined, what: string, param: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (!Number.isSafeInteger(value) || value <= 0) throw invalid(`${what} must be a positive whole number`, param);
  return value;
}

/** The alias trimmed; refused when blank or too long. */
export function checkedAlias(alias: string): string {
  const trimmed = alias.trim();
  if (trimmed === '' || trimmed.length > 200) throw invalid('the alias is required (at most 200 characters)', 'alias');
  return trimmed;
}

/**
 * The columns of the settings given (the alias aside), checked: positive budgets and limits, a known period,
 * models the gateway serves, an expiry after `now`. Columns of settings not given are left out.
 */
export function settingColumns(
  settings: KeySettings,
  known: ReadonlySet<string>,
  now: number,
): Partial<SettingColumns> {
  const columns: Partial<SettingColumns> = {};
  const budget = positiveWhole(settings.budgetTokens, 'the token budget', 'budget_tokens');
  if (budget !== undefined) columns.budget_tokens = budget;
  if (settings.resetPeriod !== undefined) {
    const period = settings.resetPeriod?.trim().toLowerCase() || null;
    if (period !== null && !parseResetPeriod(period))
      throw invalid("the reset period must be 'day', 'week', 'month' or a number of days like '30d'", 'reset_period');
    columns.reset_period = period;
  }
  if (settings.allowedModels !== undefined) {
    const models = [...new Set(settings.allowedModels)];
    const unknown = models.filter((m) => !known.has(m));
    if (unknown.length > 0) throw invalid(`unknown model(s): ${unknown.join(', ')}`, 'allowed_models');
    columns.allowed_models = models.length > 0 ? JSON.stringify(models.sort()) : null;
  }
  if (settings.expires !== undefined) {
    if (settings.expires !== null && !(Number.isFinite(settings.expires) && settings.expires > now))
      throw invalid('the expiry must be a date in the future, like 2027-12-31', 'expires');
    columns.expires = settings.expires;
  }
  const rpm = positiveWhole(settings.requestsPerMinute, 'requests per minute', 'requests_per_minute');
  if (rpm !== undefined) columns.requests_per_minute = rpm;
  const tpm = positiveWhole(settings.tokensPerMinute, 'tokens per minute', 'tokens_per_minute');
  if (tpm !== undefined) columns.tokens_per_minute = tpm;
  return columns;
}
