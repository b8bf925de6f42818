import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { alertsOfProject } from '../src/storage/alerts.js';

it('lists a project’s alerts starting from the alert index, not from its reports and metrics', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-alert-plan-'));
  const { db, close } = await openBenchDatabase(`sqlite://${join(dir, 'bench.sqlite')}`);
  try {
    const query = alertsOfProject(db, { projectUuid: 'p', archived: false }).select('alert.uuid').compile();
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    expect(plan.rows[0]?.detail).toMatch(/^SEARCH alert USING INDEX alert_project_status/);
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
});
