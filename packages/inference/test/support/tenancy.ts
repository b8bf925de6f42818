import type { Kysely } from 'kysely';
import { createAccount } from '../../src/storage/accounts.js';
import { openInferenceDatabase } from '../../src/storage/open.js';
import { addGrant, createProject, setAllocation, setMember } from '../../src/storage/projects.js';
import { setNodeHourRate } from '../../src/storage/rates.js';
import { addCredits, insertResource, setResourceLimits } from '../../src/storage/resources.js';
import type { InferenceDatabase } from '../../src/storage/schema.js';
import { createKey, type NewKey } from '../../src/tenancy/keys.js';
import { toMicro } from '../../src/tenancy/pricing.js';

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 31, 12);

let counter = 0;

/** A project with a PI, a plain member, an operator, an active grant, an allocation on `c1` at rate 10. */
export async function seedProject(db: Kysely<InferenceDatabase>, organisation: string | null = 'atrium', now = T0) {
  const n = ++counter;
  const pi = await createAccount(db, { email: `pi${n}@example.org`, name: 'PI', password: 'pi-password' }, now);
  const member = await createAccount(db, { email: `m${n}@example.org`, name: 'Member', password: 'm-password' }, now);
  const operator = await createAccount(
    db,
    { email: `op${n}@example.org`, name: 'Op', password: 'op-password', isAdmin: true },
    now,
  );
  const project = await createProject(db, `project-${n}`, organisation, now);
  await setMember(db, project.id, pi.id, 'pi');
  await setMember(db, project.id, member.id, 'member');
  await addGrant(db, project.id, now - DAY, now + 365 * DAY);
  await setAllocation(db, project.id, 'c1', 1_000);
  await setNodeHourRate(db, 'c1', 10, 0);
  return { pi, member, operator, project };
}

export interface TenantOptions {
  credits?: number;
  limits?: { requestsPerMinute?: number; tokensPerMinute?: number; concurrentRequests?: number };
}

/** A seeded project with an inference resource holding `credits` (default 1,000,000). */
export async function seedTenant(db: Kysely<InferenceDatabase>, options: TenantOptions = {}, now = T0) {
  const seeded = await seedProject(db, 'atrium', now);
  const resource = await insertResource(db, seeded.project.id, now);
  await addCredits(db, resource.id, toMicro(options.credits ?? 1_000_000));
  if (options.limits) {
    await setResourceLimits(db, resource.id, {
      requestsPerMinute: options.limits.requestsPerMinute ?? null,
      tokensPerMinute: options.limits.tokensPerMinute ?? null,
      concurrentRequests: options.limits.concurrentRequests ?? null,
    });
  }
  const key = (input: Omit<NewKey, 'projectId'>, models: readonly string[] = [], at = now) =>
    createKey(db, seeded.member, { projectId: seeded.project.id, ...input }, new Set(models), at);
  return { ...seeded, resource, key };
}

/** Opens the test's database, runs `work`, and closes it again. */
export async function withDatabase<T>(url: string, work: (db: Kysely<InferenceDatabase>) => Promise<T>): Promise<T> {
  const database = await openInferenceDatabase(url);
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}
