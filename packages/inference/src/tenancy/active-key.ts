import type { ApiKeyRow } from '../storage/api-keys.js';
import { parseResetPeriod, type ResetPeriod } from './period.js';

/** What the gateway needs of a key on every request; everything here is fixed at creation. */
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
}

export function toActiveKey(row: ApiKeyRow): ActiveKey {
  return {
    id: row.id,
    resourceId: row.resource_id,
    projectId: row.project_id,
    alias: row.alias,
    budgetTokens: row.budget_tokens,
    period: row.reset_period ? parseResetPeriod(row.reset_period) : undefined,
    anchor: row.created,
    allowedModels: row.allowed_models ? new Set(JSON.parse(row.allowed_models) as string[]) : undefined,
  };
}

export const allowsModel = (key: ActiveKey, model: string): boolean =>
  key.allowedModels === undefined || key.allowedModels.has(model);
