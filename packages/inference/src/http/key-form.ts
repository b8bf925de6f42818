import { parseEndDate } from '../tenancy/dates.js';
import type { KeySettings } from '../tenancy/key-settings.js';
import { numberField } from './ui-reply.js';

/** The settings of the key forms (create and edit); a blank field means "none". */
export function keySettingsOf(body: URLSearchParams): KeySettings & { alias: string } {
  const days = body.get('days')?.trim();
  const expires = body.get('expires')?.trim();
  return {
    alias: body.get('alias') ?? '',
    budgetTokens: numberField(body, 'budget') ?? null,
    resetPeriod: days ? `${days}d` : body.get('period') || null,
    allowedModels: body.getAll('models'),
    expires: expires ? parseEndDate(expires) : null,
    requestsPerMinute: numberField(body, 'rpm') ?? null,
    tokensPerMinute: numberField(body, 'tpm') ?? null,
  };
}
