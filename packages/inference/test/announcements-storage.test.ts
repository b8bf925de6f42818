import { latestOutbox } from '@atrium/core';
import { describeEachDialect } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { openAnnouncements, setOptOut, subscriberEmails } from '../src/storage/announcements.js';
import { postAnnouncement } from '../src/tenancy/announcements.js';
import { DAY, seedProject, seedTenant, T0, withDatabase } from './support/tenancy.js';

describeEachDialect('status announcements', ({ url }) => {
  it('reach every member of a project with a resource unless they opted out; current and upcoming listed', () =>
    withDatabase(url(), async (db) => {
      const tenant = await seedTenant(db);
      const without = await seedProject(db); // no inference resource: not subscribed
      expect(await subscriberEmails(db)).toEqual([tenant.member.email, tenant.pi.email].sort());
      await setOptOut(db, tenant.member.id, true);
      await setOptOut(db, tenant.member.id, true);
      const posted = await postAnnouncement(
        db,
        tenant.operator,
        { kind: 'incident', title: ' Slow answers ', body: 'Investigating.', starts: T0 - DAY, ends: T0 + DAY },
        T0,
      );
      expect(posted.recipients).toBe(1);
      const [mail] = await latestOutbox(db, 10);
      expect(mail).toMatchObject({ recipient: tenant.pi.email, subject: '[Atrium inference] Incident: Slow answers' });
      expect(mail?.body).toContain('Investigating.');
      await postAnnouncement(
        db,
        null,
        { kind: 'model_change', title: 'old', body: '', starts: T0 - 3 * DAY, ends: T0 - DAY },
        T0,
      );
      await postAnnouncement(
        db,
        null,
        { kind: 'maintenance', title: 'later', body: '', starts: T0 + DAY, ends: T0 + 2 * DAY },
        T0,
      );
      expect((await openAnnouncements(db, T0)).map((a) => a.title)).toEqual(['Slow answers', 'later']);
      await setOptOut(db, tenant.member.id, false);
      expect(await subscriberEmails(db)).toHaveLength(2);
      await expect(
        postAnnouncement(db, without.member, { kind: 'incident', title: 'x', body: '', starts: T0, ends: T0 + 1 }),
      ).rejects.toThrow(/only operators/);
      await expect(
        postAnnouncement(db, null, { kind: 'party', title: 'x', body: '', starts: T0, ends: T0 + 1 }),
      ).rejects.toThrow(/kind must be one of/);
      await expect(
        postAnnouncement(db, null, { kind: 'incident', title: 'x', body: '', starts: T0, ends: T0 }),
      ).rejects.toThrow(/end after it starts/);
    }));
});
