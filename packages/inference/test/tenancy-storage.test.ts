import { latestOutbox } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { checkPassword } from '../src/storage/accounts.js';
import { apiKeysOfResource } from '../src/storage/api-keys.js';
import { allocationsOf, createProject, listProjects, setAllocation } from '../src/storage/projects.js';
import { setNodeHourRate } from '../src/storage/rates.js';
import { insertResource, resourceOfProject } from '../src/storage/resources.js';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { serviceRequests } from '../src/storage/service-requests.js';
import { addUsage, usageOfKey, usageTotalsOfKeys } from '../src/storage/usage.js';
import { createKey, revokeKey } from '../src/tenancy/keys.js';
import { toMicro } from '../src/tenancy/pricing.js';
import { createResourceInPortal, PORTAL_CATEGORY, PORTAL_OFFERING, topUpCredits } from '../src/tenancy/resources.js';
import { hashSecret } from '../src/tenancy/secrets.js';
import { approveServiceRequest, fileServiceRequest, rejectServiceRequest } from '../src/tenancy/service-desk.js';
import { DAY, seedProject, seedTenant, T0, withDatabase } from './support/tenancy.js';

const ASK_PI = /principal investigator \(PI\) or deputy/;

describeEachDialect('inference tenancy storage', ({ url }) => {
  const withDb = (work: (db: Kysely<InferenceDatabase>) => Promise<void>) => withDatabase(url(), work);

  it('projects have unique names; passwords are argon2id hashes', () =>
    withDb(async (db) => {
      const { pi, project } = await seedProject(db);
      await expect(createProject(db, project.name)).rejects.toThrow();
      expect((await listProjects(db)).map((p) => p.name)).toEqual([project.name]);
      expect(await checkPassword(db, ` ${pi.email.toUpperCase()} `, 'pi-password')).toMatchObject({ id: pi.id });
      expect(await checkPassword(db, pi.email, 'wrong')).toBeUndefined();
      const stored = await db.selectFrom('account').select('password_hash').where('id', '=', pi.id).executeTakeFirst();
      expect(stored?.password_hash).toMatch(/^\$argon2id\$/);
    }));

  it('path (a): the PI creates the resource in the portal at the rate in force; a member is told to ask', () =>
    withDb(async (db) => {
      const { pi, member, project } = await seedProject(db, 'atrium');
      await setNodeHourRate(db, 'c1', 25, T0 + DAY); // a later rate, not yet in force
      const order = {
        projectId: project.id,
        category: PORTAL_CATEGORY,
        offering: PORTAL_OFFERING,
        nodeHours: 40,
        cluster: 'c1',
      };
      await expect(createResourceInPortal(db, member, order, 'atrium', T0)).rejects.toThrow(ASK_PI);
      await expect(createResourceInPortal(db, pi, { ...order, offering: 'other' }, 'atrium', T0)).rejects.toThrow(
        /Inference-api-u/,
      );
      await expect(createResourceInPortal(db, pi, { ...order, nodeHours: 5_000 }, 'atrium', T0)).rejects.toThrow(
        /does not have 5000 node hours/,
      );
      const resource = await createResourceInPortal(db, pi, order, 'atrium', T0);
      expect(resource.credits_total).toBe(toMicro(400));
      expect(await allocationsOf(db, project.id)).toEqual([{ cluster: 'c1', node_hours: 960 }]);
      await expect(createResourceInPortal(db, pi, order, 'atrium', T0)).rejects.toThrow(/already has/);
    }));

  it('path (a) is only for the designated organisation', () =>
    withDb(async (db) => {
      const { pi, project } = await seedProject(db, 'elsewhere');
      const order = {
        projectId: project.id,
        category: PORTAL_CATEGORY,
        offering: PORTAL_OFFERING,
        nodeHours: 1,
        cluster: 'c1',
      };
      await expect(createResourceInPortal(db, pi, order, 'atrium', T0)).rejects.toThrow(/service desk/);
    }));

  it('path (b): a service-desk request approved by an operator converts node hours at the current rate', () =>
    withDb(async (db) => {
      const { pi, member, operator, project } = await seedProject(db, 'elsewhere');
      await setNodeHourRate(db, 'c1', 12.5, T0 + DAY);
      const input = {
        projectId: project.id,
        service: 'Inference API',
        text: 'for our agents',
        nodeHours: 8,
        cluster: 'c1',
      };
      await expect(fileServiceRequest(db, member, input, T0)).rejects.toThrow(ASK_PI);
      const request = await fileServiceRequest(db, pi, input, T0);
      expect(request.status).toBe('open');
      await expect(approveServiceRequest(db, pi, request.id, T0 + 2 * DAY)).rejects.toThrow(/operators/);
      const approved = await approveServiceRequest(db, operator, request.id, T0 + 2 * DAY);
      expect(approved.credits).toBe(toMicro(100)); // 8 h × 12.5, the rate in force at approval
      await expect(approveServiceRequest(db, operator, request.id, T0 + 2 * DAY)).rejects.toThrow(/already approved/);
      expect((await resourceOfProject(db, project.id))?.credits_total).toBe(toMicro(100));
      expect(await allocationsOf(db, project.id)).toEqual([{ cluster: 'c1', node_hours: 992 }]);

      const second = await fileServiceRequest(db, pi, { ...input, nodeHours: 2 }, T0);
      await rejectServiceRequest(db, operator, second.id, T0, 'smtp');
      expect((await serviceRequests(db, 'rejected')).map((r) => r.id)).toEqual([second.id]);
      const mails = (await latestOutbox(db, 10)).map((m) => [m.recipient, m.subject, m.status]);
      expect(mails).toEqual([
        [pi.email, `[Atrium inference] Service-desk request #${second.id} rejected`, 'queued'],
        [pi.email, `[Atrium inference] Service-desk request #${request.id} approved`, 'outbox'],
      ]);
      await topUpCredits(db, operator, project.id, 5);
      expect((await resourceOfProject(db, project.id))?.credits_total).toBe(toMicro(105));
      await expect(topUpCredits(db, pi, project.id, 5)).rejects.toThrow(/operators/);
    }));

  it('a request that could not be approved is refused when filed', () =>
    withDb(async (db) => {
      const { pi, project } = await seedProject(db, 'elsewhere');
      const input = { projectId: project.id, service: 'Inference API', text: 'more', nodeHours: 600, cluster: 'c1' };
      await expect(fileServiceRequest(db, pi, { ...input, cluster: 'c9' }, T0)).rejects.toThrow(
        /no allocation on cluster 'c9'/,
      );
      await setAllocation(db, project.id, 'c2', 10);
      await expect(fileServiceRequest(db, pi, { ...input, nodeHours: 5, cluster: 'c2' }, T0)).rejects.toThrow(
        /no node-hour rate is set for cluster 'c2'/,
      );
      await fileServiceRequest(db, pi, input, T0);
      await expect(fileServiceRequest(db, pi, input, T0)).rejects.toThrow(
        /400 node hours left on cluster 'c1' besides 600 in open requests/,
      );
      await expect(fileServiceRequest(db, pi, { ...input, nodeHours: 1 }, T0 + 400 * DAY)).rejects.toThrow(
        /no active grant/,
      );
    }));

  it('an approval that would overdraw the allocation changes nothing', () =>
    withDb(async (db) => {
      const { pi, operator, project } = await seedProject(db, 'elsewhere');
      const request = await fileServiceRequest(
        db,
        pi,
        { projectId: project.id, service: 'Inference API', text: 'more', nodeHours: 4, cluster: 'c1' },
        T0,
      );
      await setAllocation(db, project.id, 'c1', 3); // lowered after filing
      await expect(approveServiceRequest(db, operator, request.id, T0)).rejects.toThrow(/node hours/);
      expect((await serviceRequests(db, 'open')).map((r) => r.id)).toEqual([request.id]);
      expect(await resourceOfProject(db, project.id)).toBeUndefined();
    }));

  it('keys: secret shown once and stored hashed, aliases distinct after trim and case-folding, revocation', () =>
    withDb(async (db) => {
      const tenant = await seedTenant(db);
      const created = await tenant.key({ alias: 'Laptop', budgetTokens: 1000, resetPeriod: 'week' }, ['a/b']);
      expect(created.secret).toMatch(/^sk-[0-9A-Za-z]{40}$/);
      const [row] = await apiKeysOfResource(db, tenant.resource.id);
      expect(row).toMatchObject({ alias: 'Laptop', budget_tokens: 1000, reset_period: 'week', allowed_models: null });
      expect(row?.secret_hash).toBe(hashSecret(created.secret));
      expect(JSON.stringify(row)).not.toContain(created.secret);
      await expect(tenant.key({ alias: '  laptop ' })).rejects.toThrow(/already exists/);
      await expect(tenant.key({ alias: '   ' })).rejects.toThrow(/alias is required/);
      await expect(tenant.key({ alias: 'x', resetPeriod: 'hourly' })).rejects.toThrow(/reset period/);
      await expect(tenant.key({ alias: 'x', budgetTokens: -1 })).rejects.toThrow(/budget/);
      await expect(tenant.key({ alias: 'x', allowedModels: ['a/unknown'] }, ['a/b'])).rejects.toThrow(/unknown model/);
      const limited = await tenant.key({ alias: 'only b', allowedModels: ['a/b', 'a/b'] }, ['a/b']);
      expect(limited.key.allowed_models).toBe('["a/b"]');
      await revokeKey(db, tenant.member, created.key.id, T0 + 1);
      expect((await apiKeysOfResource(db, tenant.resource.id))[0]?.revoked).toBe(T0 + 1);
    }));

  it('keys need an active grant and a resource, and membership', () =>
    withDb(async (db) => {
      const { member, operator, project } = await seedProject(db);
      const input = { projectId: project.id, alias: 'k' };
      await expect(createKey(db, member, input, new Set(), T0)).rejects.toThrow(/no inference resource/);
      await insertResource(db, project.id, T0);
      await expect(createKey(db, member, input, new Set(), T0 + 400 * DAY)).rejects.toThrow(/no active grant/);
      const stranger = { ...operator, is_admin: 0 }; // an account outside the project
      await expect(createKey(db, stranger, input, new Set(), T0)).rejects.toThrow(/only members/);
      await expect(createKey(db, member, input, new Set(), T0)).resolves.toMatchObject({ key: { alias: 'k' } });
    }));

  it('usage counters add up per key × model × hour', () =>
    withDb(async (db) => {
      const tenant = await seedTenant(db);
      const { key } = await tenant.key({ alias: 'u' });
      const row = {
        key_id: key.id,
        model: 'a/b',
        hour: T0,
        requests: 1,
        prompt_tokens: 10,
        completion_tokens: 5,
        credits: 7,
      };
      await addUsage(db, [row, { ...row, model: 'a/c' }]);
      await addUsage(db, [row]);
      expect(await usageOfKey(db, key.id, T0, T0 + 1)).toEqual([
        { hour: T0, model: 'a/b', requests: 2, prompt_tokens: 20, completion_tokens: 10, credits: 14 },
        { hour: T0, model: 'a/c', requests: 1, prompt_tokens: 10, completion_tokens: 5, credits: 7 },
      ]);
      expect(await usageTotalsOfKeys(db, [key.id], 0)).toEqual([
        { key_id: key.id, requests: 3, prompt_tokens: 30, completion_tokens: 15, credits: 21 },
      ]);
    }));
});
