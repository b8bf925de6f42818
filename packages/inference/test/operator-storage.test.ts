import { claimMessage, dueMessages, latestOutbox, markAttemptFailed, markSent, outboxOf } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { resourcesWithProjects } from '../src/storage/resources.js';
import { recentTopUps } from '../src/storage/top-ups.js';
import { postAnnouncement } from '../src/tenancy/announcements.js';
import { OperatorCommands } from '../src/tenancy/operator.js';
import { toMicro } from '../src/tenancy/pricing.js';
import { setLimitsOfProject, topUpCredits } from '../src/tenancy/resources.js';
import { DAY, seedProject, seedTenant, T0, withDatabase } from './support/tenancy.js';

describeEachDialect('operator storage', ({ url }) => {
  it('top-ups are recorded with the operator and time; the CLI shows as nobody', () =>
    withDatabase(url(), async (db) => {
      const a = await seedTenant(db, { credits: 10 });
      const b = await seedTenant(db, { credits: 0 });
      await topUpCredits(db, a.operator, a.project.id, 2.5, T0);
      await new OperatorCommands(db).topUp(b.project.name, 7);
      await expect(topUpCredits(db, a.pi, a.project.id, 1, T0)).rejects.toThrow(/only operators/);
      await expect(topUpCredits(db, a.operator, a.project.id, -1, T0)).rejects.toThrow(/positive/);
      const bare = await seedProject(db);
      await expect(topUpCredits(db, a.operator, bare.project.id, 1, T0)).rejects.toThrow(
        /inference resource not found/,
      );

      const topUps = await recentTopUps(db, 10);
      expect(topUps.map((t) => [t.project_name, t.credits, t.operator_email])).toEqual([
        [b.project.name, toMicro(7), null],
        [a.project.name, toMicro(2.5), a.operator.email],
      ]);
      expect(topUps[1]?.created).toBe(T0);
      const resources = await resourcesWithProjects(db);
      expect(resources.map((r) => [r.project_name, r.credits_total])).toEqual([
        [a.project.name, toMicro(12.5)],
        [b.project.name, toMicro(7)],
      ]);
    }));

  it('resource limits: operators only, positive whole numbers, null for none', () =>
    withDatabase(url(), async (db) => {
      const { operator, pi, project } = await seedTenant(db);
      const limits = { requestsPerMinute: 60, tokensPerMinute: null, concurrentRequests: 4 };
      await setLimitsOfProject(db, operator, project.id, limits);
      const [resource] = await resourcesWithProjects(db);
      expect(resource).toMatchObject({ requests_per_minute: 60, tokens_per_minute: null, concurrent_requests: 4 });
      await expect(setLimitsOfProject(db, pi, project.id, limits)).rejects.toThrow(/only operators/);
      await expect(setLimitsOfProject(db, operator, project.id, { ...limits, tokensPerMinute: 1.5 })).rejects.toThrow(
        'tokens per minute must be a positive whole number',
      );
    }));

  it('outbox: SMTP messages are claimed once per attempt, retried when due, marked sent or failed', () =>
    withDatabase(url(), async (db) => {
      const tenant = await seedTenant(db);
      const input = { kind: 'incident', title: 'Down', body: '', starts: T0, ends: T0 + DAY };
      await postAnnouncement(db, null, input, T0, 'outbox');
      expect(await dueMessages(outboxOf(db), T0, 10)).toEqual([]);
      await postAnnouncement(db, tenant.operator, input, T0, 'smtp');
      const due = await dueMessages(outboxOf(db), T0, 10);
      expect(due.map((m) => [m.recipient, m.attempts])).toEqual(
        [
          [tenant.pi.email, 0],
          [tenant.member.email, 0],
        ].sort(),
      );
      const [first, second] = due as [(typeof due)[0], (typeof due)[0]];

      expect(await claimMessage(outboxOf(db), first, T0 + 1_000)).toBe(true);
      expect(await claimMessage(outboxOf(db), first, T0 + 1_000)).toBe(false); // another process got there first
      expect((await dueMessages(outboxOf(db), T0, 10)).map((m) => m.id)).toEqual([second.id]);
      await markAttemptFailed(outboxOf(db), first.id, '451 try later', T0 + 500);
      expect((await dueMessages(outboxOf(db), T0 + 499, 10)).map((m) => m.id)).toEqual([second.id]);
      const again = (await dueMessages(outboxOf(db), T0 + 500, 10)).find((m) => m.id === first.id);
      expect(again?.attempts).toBe(1);
      expect(await claimMessage(outboxOf(db), again as typeof first, T0 + 2_000)).toBe(true);
      await markSent(outboxOf(db), first.id, T0 + 600);

      expect(await claimMessage(outboxOf(db), second, T0 + 1_000)).toBe(true);
      await markAttemptFailed(outboxOf(db), second.id, '550 no such mailbox', undefined);
      expect(await dueMessages(outboxOf(db), T0 + DAY, 10)).toEqual([]);

      const byId = new Map((await latestOutbox(db, 10)).map((m) => [m.id, m]));
      expect(byId.get(first.id)).toMatchObject({ status: 'sent', attempts: 2, sent_at: T0 + 600, last_error: null });
      expect(byId.get(second.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: '550 no such mailbox' });
      expect([...byId.values()].filter((m) => m.status === 'outbox')).toHaveLength(2);
    }));
});
