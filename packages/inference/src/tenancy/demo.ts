import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { InferenceConfig } from '../config.js';
import { createAccount } from '../storage/accounts.js';
import { setApiKeySecret } from '../storage/api-keys.js';
import { addGrant, createProject, findProjectByName, setAllocation, setMember } from '../storage/projects.js';
import { setNodeHourRate } from '../storage/rates.js';
import { addCredits, insertResource } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { createKey } from './keys.js';
import { toMicro } from './pricing.js';
import { aliasKey, hashSecret } from './secrets.js';

export const DEMO_EMAIL = 'demo@atrium.local';
export const DEMO_PROJECT = 'demo';
const DEMO_ALIAS = 'demo';
const DEMO_CLUSTER = 'demo-cluster';
const YEAR_MS = 365 * 86_400_000;

/** What the start banner shows: everything on first start, the key again only when its secret is configured. */
export interface DemoCredentials {
  key: string | undefined;
  /** Only on the start that created the account. */
  account?: { email: string; password: string };
}

/**
 * On an empty database: a demo account (PI of a demo project with an active grant, an allocation and an
 * inference resource with credits) and one key allowed on every model. On later starts the demo key's secret
 * follows `ATRIUM_DEMO_KEY` when that is set.
 */
export async function ensureDemoData(
  db: Kysely<InferenceDatabase>,
  config: InferenceConfig,
  models: ReadonlySet<string>,
  now = Date.now(),
): Promise<DemoCredentials | undefined> {
  if (!config.auth.demo) return undefined;
  const secret = config.auth.demoKey ?? (process.env.ATRIUM_DEMO_KEY || undefined);
  const empty = (await db.selectFrom('account').select('id').limit(1).executeTakeFirst()) === undefined;
  if (!empty) return updateDemoKey(db, secret);
  const password = randomBytes(12).toString('base64url');
  return db.transaction().execute(async (trx) => {
    const account = await createAccount(trx, { email: DEMO_EMAIL, name: 'Demo user', password }, now);
    const project = await createProject(trx, DEMO_PROJECT, config.tenancy.designatedOrganisation, now);
    await setMember(trx, project.id, account.id, 'pi');
    await addGrant(trx, project.id, now - 86_400_000, now + YEAR_MS);
    await setAllocation(trx, project.id, DEMO_CLUSTER, 1_000);
    await setNodeHourRate(trx, DEMO_CLUSTER, 100, 0);
    const resource = await insertResource(trx, project.id, now);
    await addCredits(trx, resource.id, toMicro(10_000));
    const created = await createKey(trx, null, { projectId: project.id, alias: DEMO_ALIAS, secret }, models, now);
    return { key: created.secret, account: { email: DEMO_EMAIL, password } };
  });
}

async function updateDemoKey(db: Kysely<InferenceDatabase>, secret: string | undefined) {
  if (secret === undefined) return undefined;
  const project = await findProjectByName(db, DEMO_PROJECT);
  const key =
    project &&
    (await db
      .selectFrom('api_key')
      .select(['id', 'secret_hash'])
      .where('project_id', '=', project.id)
      .where('alias_key', '=', aliasKey(DEMO_ALIAS))
      .executeTakeFirst());
  if (!key) return undefined;
  if (key.secret_hash !== hashSecret(secret)) await setApiKeySecret(db, key.id, hashSecret(secret), secret.slice(-4));
  return { key: secret };
}

/** Demo credentials of the app built from a config object, for its start banner. */
export const demoCredentials = new WeakMap<InferenceConfig, DemoCredentials>();
