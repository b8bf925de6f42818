import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import {
  claimDelivery,
  dueDeliveries,
  latestDeliveries,
  markDelivered,
  markDeliveryFailed,
} from '../src/storage/announcement-deliveries.js';
import { latestAnnouncements, pastAnnouncements } from '../src/storage/announcements.js';
import { outboxEntries, postAnnouncement } from '../src/tenancy/announcements.js';
import { DAY, seedTenant, T0, withDatabase } from './support/tenancy.js';

const LEASE = 60_000;
const CHANNELS = ['slack-ops', 'matrix-ops'];

describeEachDialect('announcement deliveries to chat channels', ({ url }) => {
  it('one pending delivery per channel, claimed once per attempt, retried when due, then sent or failed', () =>
    withDatabase(url(), async (db) => {
      const tenant = await seedTenant(db);
      const input = { kind: 'maintenance', title: 'Upgrade', body: 'Short.', starts: T0 + DAY, ends: T0 + 2 * DAY };
      const posted = await postAnnouncement(db, tenant.operator, input, T0, 'outbox', ['slack-ops', 'matrix-ops']);
      expect(posted).toMatchObject({ recipients: 2, channels: 2 });

      // A process configured with other channels (or none) leaves them for one that knows them.
      expect(await dueDeliveries(db, [], T0, 10)).toEqual([]);
      expect((await dueDeliveries(db, ['matrix-ops', 'irc'], T0, 10)).map((d) => d.channel)).toEqual(['matrix-ops']);
      const due = await dueDeliveries(db, CHANNELS, T0, 10);
      expect(due.map((d) => [d.channel, d.attempts])).toEqual([
        ['slack-ops', 0],
        ['matrix-ops', 0],
      ]);
      expect(due[0]?.announcement).toEqual(posted.announcement);
      const [slack, matrix] = due as [(typeof due)[0], (typeof due)[0]];

      // Two processes see the same due row: only one takes it.
      expect(await claimDelivery(db, slack, T0 + LEASE)).toBe(true);
      expect(await claimDelivery(db, slack, T0 + LEASE)).toBe(false);
      expect(await claimDelivery(db, matrix, T0 + LEASE)).toBe(true);
      expect(await dueDeliveries(db, CHANNELS, T0 + LEASE - 1, 10)).toEqual([]);

      await markDeliveryFailed(db, slack.id, 'hooks.example.org: HTTP 500', T0 + 1_000);
      await markDelivered(db, matrix.id, T0 + 10);
      expect(await dueDeliveries(db, CHANNELS, T0 + 999, 10)).toEqual([]);
      const retry = await dueDeliveries(db, CHANNELS, T0 + 1_000, 10);
      expect(retry.map((d) => [d.channel, d.attempts])).toEqual([['slack-ops', 1]]);
      expect(await claimDelivery(db, retry[0] as (typeof retry)[0], T0 + LEASE)).toBe(true);
      await markDeliveryFailed(db, slack.id, 'hooks.example.org: HTTP 404 no_service', undefined);

      const listed = await latestDeliveries(db, 10);
      expect(listed.map((d) => [d.channel, d.status, d.attempts, d.last_error, d.sent_at, d.title, d.kind])).toEqual([
        ['matrix-ops', 'sent', 1, null, T0 + 10, 'Upgrade', 'maintenance'],
        ['slack-ops', 'failed', 2, 'hooks.example.org: HTTP 404 no_service', null, 'Upgrade', 'maintenance'],
      ]);
      expect(await dueDeliveries(db, CHANNELS, T0 + 10 * LEASE, 10)).toEqual([]);

      const outbox = await outboxEntries(db, 10);
      expect(outbox.map((o) => [o.type, o.to, o.status])).toEqual([
        ['channel', 'matrix-ops', 'sent'],
        ['channel', 'slack-ops', 'failed'],
        ['email', tenant.pi.email, 'outbox'],
        ['email', tenant.member.email, 'outbox'],
      ]);
      expect(outbox[0]?.subject).toBe('Planned maintenance: Upgrade');
    }));

  it('no channel configured: no delivery; the feed lists the newest first, the page the recently ended', () =>
    withDatabase(url(), async (db) => {
      const post = (title: string, starts: number, ends: number, created: number) =>
        postAnnouncement(db, null, { kind: 'incident', title, body: '', starts, ends }, created);
      await post('long ago', T0 - 60 * DAY, T0 - 59 * DAY, T0 - 61 * DAY);
      await post('last week', T0 - 7 * DAY, T0 - 6 * DAY, T0 - 8 * DAY);
      await post('yesterday', T0 - DAY, T0 - 1, T0 - 2 * DAY);
      await post('now', T0 - 1, T0 + DAY, T0 - 1);
      expect(await latestDeliveries(db, 10)).toEqual([]);
      expect((await latestAnnouncements(db, 3)).map((a) => a.title)).toEqual(['now', 'yesterday', 'last week']);
      expect((await pastAnnouncements(db, T0, T0 - 30 * DAY, 10)).map((a) => a.title)).toEqual([
        'yesterday',
        'last week',
      ]);
    }));
});
