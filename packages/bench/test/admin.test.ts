import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDialect, listen, silentLogger } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import {
  benchConfigSchema,
  buildBenchApp,
  createUserAccount,
  issueCredential,
  openBenchDatabase,
} from '../src/index.js';

describeEachDialect('bench operator tasks', ({ url }) => {
  it('creates the first user as admin with an organisation, and mints credentials the API accepts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atrium-bench-admin-'));
    const config = benchConfigSchema.parse({ database: url() });
    const database = await openBenchDatabase(url());
    const first = await createUserAccount(database.db, { name: 'Eustace Bagge', email: 'eustace@nowhere.com' });
    const second = await createUserAccount(database.db, { name: 'Muriel Bagge', email: 'muriel@nowhere.com' });
    expect(first.admin).toBe(1);
    expect(second.admin).toBe(0);
    await expect(createUserAccount(database.db, { name: 'Again', email: 'muriel@nowhere.com' })).rejects.toThrow(
      'exists',
    );
    const jwt = await issueCredential(database.db, config, dataDir, { email: 'muriel@nowhere.com', kind: 'jwt' });
    const key = await issueCredential(database.db, config, dataDir, { email: 'muriel@nowhere.com', kind: 'user-key' });
    await expect(
      issueCredential(database.db, config, dataDir, {
        email: 'muriel@nowhere.com',
        kind: 'project-key',
        project: 'nope',
      }),
    ).rejects.toThrow('no project');
    await database.close();
    expect(statSync(join(dataDir, 'bench-jwt-secret')).mode & 0o077).toBe(0);

    const app = await buildBenchApp(config, { logger: silentLogger, dataDir, accessLog: false });
    try {
      const base = await listen(app);
      for (const credential of [jwt, key]) {
        const response = await fetch(`${base}/v0/organizations`, {
          headers: { authorization: `Bearer ${credential}` },
        });
        expect(response.status).toBe(200);
        expect(((await response.json()) as { slug: string }[]).map((org) => org.slug)).toEqual(['muriel-bagge']);
      }
    } finally {
      await app.close();
    }
  });
});
