import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account } from '../storage/accounts.js';
import {
  type ApiKeyRow,
  findApiKey,
  insertApiKey,
  revokeApiKey,
  setApiKeySecret,
  updateApiKey,
} from '../storage/api-keys.js';
import { hasActiveGrant, roleIn } from '../storage/projects.js';
import { resourceOfProject } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { conflict, notFound, refused } from './errors.js';
import { checkedAlias, type KeySettings, settingColumns } from './key-settings.js';
import { aliasKey, generateSecret, hashSecret } from './secrets.js';

export interface NewKey extends KeySettings {
  projectId: string;
  alias: string;
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
  const alias = checkedAlias(input.alias);
  const columns = settingColumns(input, known, now);
  const secret = input.secret ?? generateSecret();
  const row: ApiKeyRow = {
    id: randomUUID(),
    project_id: input.projectId,
    resource_id: resourceId,
    alias,
    alias_key: aliasKey(alias),
    secret_hash: hashSecret(secret),
    secret_hint: secret.slice(-4),
    budget_tokens: columns.budget_tokens ?? null,
    reset_period: columns.reset_period ?? null,
    allowed_models: columns.allowed_models ?? null,
    created_by: createdBy,
    created: now,
    revoked: null,
    last_used: null,
    period_start: now,
    period_used: 0,
    expires: columns.expires ?? null,
    requests_per_minute: columns.requests_per_minute ?? null,
    tokens_per_minute: columns.tokens_per_minute ?? null,
    window_minute: 0,
    window_requests: 0,
    window_tokens: 0,
    rotated: null,
  };
  return { row, secret };
}

const aliasTaken = (alias: string) =>
  conflict('alias_taken', `a key with the alias '${alias}' already exists on this resource`);

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
  if (!(await insertApiKey(db, row))) throw aliasTaken(row.alias);
  return { key: row, secret };
}

/**
 * The key, if `account` may change it: operators (and the CLI, `account` null), the project's PI and deputy any
 * key of the project, a plain member the keys they created.
 */
export async function managedKey(
  db: Kysely<InferenceDatabase>,
  account: Account | null,
  keyId: string,
): Promise<ApiKeyRow> {
  const key = await findApiKey(db, keyId);
  if (!key) throw notFound('API key');
  if (!account || account.is_admin === 1) return key;
  const role = await roleIn(db, key.project_id, account.id);
  if (role === 'pi' || role === 'deputy') return key;
  if (role === undefined) throw refused('only members of the project can change its keys');
  if (key.created_by !== account.id)
    throw refused("members change and revoke the keys they created; the project's PI or deputy can change any key");
  return key;
}

/** Changes a key's alias and settings; revoked keys stay as they are. */
export async function editKey(
  db: Kysely<InferenceDatabase>,
  account: Account | null,
  keyId: string,
  settings: KeySettings,
  knownModels: ReadonlySet<string>,
  now = Date.now(),
): Promise<ApiKeyRow> {
  const key = await managedKey(db, account, keyId);
  if (key.revoked !== null) throw conflict('key_revoked', 'a revoked key cannot be changed');
  const columns = settingColumns(settings, knownModels, now);
  const alias = settings.alias === undefined ? undefined : checkedAlias(settings.alias);
  const changes = alias === undefined ? columns : { ...columns, alias, alias_key: aliasKey(alias) };
  if (!(await updateApiKey(db, key, changes))) throw aliasTaken(alias ?? key.alias);
  return { ...key, ...changes };
}

/** Replaces a key's secret: same key, settings and history; the old secret is refused from now on. */
export async function rotateKey(
  db: Kysely<InferenceDatabase>,
  account: Account | null,
  keyId: string,
  now = Date.now(),
): Promise<CreatedKey> {
  const key = await managedKey(db, account, keyId);
  if (key.revoked !== null) throw conflict('key_revoked', 'a revoked key cannot be rotated');
  const secret = generateSecret();
  await setApiKeySecret(db, key.id, hashSecret(secret), secret.slice(-4), now);
  return { key: { ...key, secret_hint: secret.slice(-4), rotated: now }, secret };
}

/** Revokes a key (see `managedKey` for who may). */
export async function revokeKey(
  db: Kysely<InferenceDatabase>,
  account: Account | null,
  keyId: string,
  now = Date.now(),
) {
  const key = await managedKey(db, account, keyId);
  await revokeApiKey(db, keyId, now);
  return key;
}
