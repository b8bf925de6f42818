import { join } from 'node:path';
import { createUser, openBenchDatabase } from '@atrium/bench';
import { beforeAll, describe, expect, it } from 'vitest';
import { bmfCommand, json, liveBenchSuite, tokenFor } from './bench-support.js';

describe('atrium bench member, organization and project allowed/claim/usage against a live bench server', () => {
  const suite = liveBenchSuite();
  const { cli } = suite;
  const asCourage = { env: { ATRIUM_BENCH_KEY: tokenFor('courage@nowhere.com') } };

  /** The invite code of the newest message in the server's outbox, as `atrium bench admin outbox` prints it. */
  const lastInvite = async () => {
    const printed = await cli(['admin', 'outbox', '--limit', '1', '--data-dir', suite.bench.dir]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^--- message \d+ · .* · outbox\nTo: /);
    return /^Invite code: (\S+)$/m.exec(printed.stdout)?.[1] as string;
  };

  beforeAll(async () => {
    const seed = await openBenchDatabase(`sqlite:${join(suite.bench.dir, 'bench.db')}`);
    await createUser(seed.db, { name: 'Courage', slug: 'courage', email: 'courage@nowhere.com' });
    await seed.close();
  });

  it('invites, accepts, lists, views, promotes and removes a member, with positional organisations', {
    timeout: 60_000,
  }, async () => {
    json(await cli(['org', 'create', '--name', 'Members Org', '--slug', 'members-org']));
    const leaders = json(await cli(['member', 'list', 'members-org', '--strict']));
    expect(leaders.map((m: { slug: string; role: string }) => [m.slug, m.role])).toEqual([['muriel-bagge', 'leader']]);

    const ack = json(
      await cli(['member', 'invite', 'members-org', '--email', 'courage@nowhere.com', '--role', 'member']),
    );
    expect(ack).toEqual({ email: 'courage@nowhere.com' });
    expect(json(await cli(['auth', 'accept', await lastInvite()], asCourage))).toEqual({
      email: 'courage@nowhere.com',
    });

    expect(json(await cli(['member', 'ls', 'members-org', '--search', 'cour'])).length).toBe(1);
    const courage = json(await cli(['member', 'view', 'members-org', 'courage', '--strict']));
    expect(courage).toMatchObject({ name: 'Courage', email: 'courage@nowhere.com', role: 'member' });
    expect(json(await cli(['org', 'allowed', 'members-org', '--perm', 'create_role'], asCourage))).toEqual({
      allowed: false,
    });
    expect(json(await cli(['organization', 'allowed', 'members-org', '--perm', 'create_role']))).toEqual({
      allowed: true,
    });

    expect(json(await cli(['member', 'update', 'members-org', courage.uuid, '--role', 'leader'])).role).toBe('leader');
    const removed = await cli(['member', 'remove', 'members-org', 'courage']);
    expect(removed).toMatchObject({ code: 0, stdout: '' });
    expect(json(await cli(['member', 'list', 'members-org'])).map((m: { slug: string }) => m.slug)).toEqual([
      'muriel-bagge',
    ]);

    const refused = await cli(['member', 'list', 'members-org'], asCourage);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('404');
  });

  it('claims an anonymous run’s organisation, reports usage and answers project allowed', {
    timeout: 60_000,
  }, async () => {
    const anonymous = json(
      await cli(['run', '--format', 'json', '--quiet', ...bmfCommand(5)], { env: { ATRIUM_BENCH_KEY: undefined } }),
    );
    expect(anonymous.project.claimed).toBeNull();
    const organization = anonymous.project.organization as string;
    const claimed = json(await cli(['organization', 'claim', organization, '--strict']));
    expect(claimed.uuid).toBe(organization);
    expect(claimed.claimed).not.toBeNull();
    const again = await cli(['organization', 'claim', organization]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409');

    const usage = json(await cli(['organization', 'usage', organization, '--strict']));
    expect(usage).toMatchObject({ organization, kind: 'self_hosted_free', metrics: 1, runner_minutes: 0 });
    expect(json(await cli(['project', 'allowed', anonymous.project.slug, '--perm', 'manage']))).toEqual({
      allowed: true,
    });
    const usage404 = await cli(['organization', 'usage', organization], asCourage);
    expect(usage404.code).toBe(1);
  });
});
