import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account } from '../storage/accounts.js';
import { type ApiKeyRow, findApiKey, insertApiKey, revokeApiKey } from '../storage/api-keys.js';
import { hasActiveGrant, roleIn } from '../storage/projects.js';
import { resourceOfProject } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { conflict, invalid, notFound, refused } from './errors.js';
import { parseResetPeriod } from './period.js';
import { aliasKey, generateSecret, hashSecret } from './secrets.js';

export interface NewKey {
  projectId: string;
  alias: string;
  budgetTokens?: number | undefined;
  resetPeriod?: string | undefined;
  /** Undefined or empty: every model. */
  allowedModels?: readonly string[] | undefined;
  /** Only for the demo key and tests: the secret to use instead of a random one. */
  secret?: string | undefined;
}

export interface CreatedKey {
  key: ApiKeyRow;
  /** Shown once; only its hash is stored. */
  secret: string;
}

/** Checks the fields and builds the row; the secret is random unless given. */
export function newKeyRow(
  input: NewKey,
  resourceId: string,
  createdBy: string | null,
  known: ReadonlySet<string>,
  now: number,
) {
  const alias = input.alias.trim();
  if (alias === '' || alias.length > 200) throw invalid('the alias is required (at most 200 characters)', 'alias');
  const budget = input.budgetTokens;
  if (budget !== undefined && (!Number.isSafeInteger(budget) || budget <= 0))
    throw invalid('the token budget must be a positive whole number', 'budget_tokens');
  const period = input.resetPeriod?.trim() || undefined;
  if (period !== undefined && !parseResetPeriod(period))
    throw invalid("the reset period must be 'day', 'week', 'month' or a number of days like '30d'", 'reset_period');
  const models = [...new Set(input.allowedModels ?? [])];
  const unknown = models.filter((m) => !known.has(m));
  if (unknown.length > 0) throw invalid(`unknown model(s): ${unknown.join(', ')}`, 'allowed_models');
  const secret = input.secret ?? generateSecret();
  const row: ApiKeyRow = {
    id: randomUUID(),
    project_id: input.projectId,
    resource_id: resourceId,
    alias,
    alias_key: aliasKey(alias),
    secret_hash: hashSecret(secret),
    secret_hint: secret.slice(-4),
    budget_tokens: budget ?? null,
    reset_period: period?.toLowerCase() ?? null,
    allowed_models: models.length > 0 ? JSON.stringify(models.sort()) : null,
    created_by: createdBy,
    created: now,
    revoked: null,
    last_used: null,
    period_start: now,
    period_used: 0,
  };
  return { row, secret };
}

/**
 * Creates a key under the project's inference resource. Any member may (operators too), once the project
 * has an active grant and a resource; `account` null is the operator CLI.
 */
export async function createKey(
  db: Kysely<InferenceDatabase>,
  account: Account | null,
  input: NewKey,
  knownModels: ReadonlySet<string>,
  now = Date.now(),
): Promise<CreatedKey> {
  if (account && account.is_admin !== 1 && !(await roleIn(db, input.projectId, account.id)))
    throw refused('only members of the project can create its keys');
  if (!(await hasActiveGrant(db, input.projectId, now)))
    throw refused('the project has no active grant; keys can be created while a grant is active');
  const resource = await resourceOfProject(db, input.projectId);
  if (!resource) throw refused('the project has no inference resource yet; its PI or deputy can request one');
  const { row, secret } = newKeyRow(input, resource.id, account?.id ?? null, knownModels, now);
  if (!(await insertApiKey(db, row)))
    throw conflict('alias_taken', `a key with the alias '${row.alias}' already exists on this resource`);
  return { key: row, secret };
}

/** Revokes a key of a project the account belongs to (any member, as for creation). */
export async function revokeKey(
  db: Kysely<InferenceDatabase>,
  account: Account | null,
  keyId: string,
  now = Date.now(),
) {
  const key = await findApiKey(db, keyId);
  if (!key) throw notFound('API key');
  if (account && account.is_admin !== 1 && !(await roleIn(db, key.project_id, account.id)))
    throw refused('only members of the project can revoke its keys');
  await revokeApiKey(db, keyId, now);
  return key;
}
