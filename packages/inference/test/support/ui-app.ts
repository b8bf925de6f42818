import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeGracefully, type Logger } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { buildInferenceApp, inferenceConfigSchema, openInferenceDatabase } from '../../src/index.js';
import type { InferenceDatabase } from '../../src/storage/schema.js';
import { startFixedUpstream } from './fixed-upstream.js';

export const UI_MODEL = 'acme/chat';

export interface UiApp<T> {
  base: string;
  /** The database the app runs on. */
  url: string;
  seeded: T;
  close(): Promise<void>;
}

/**
 * The inference app on a fresh SQLite file (or on `config.database`) seeded by `seed`, serving `acme/chat` from a
 * fixed upstream, with `config` merged into its configuration.
 */
export async function startUiApp<T>(
  seed: (db: Kysely<InferenceDatabase>) => Promise<T>,
  config: Record<string, unknown> = {},
  logger: Logger = silentLogger,
): Promise<UiApp<T>> {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-ui-'));
  const url = (config.database as string | undefined) ?? `sqlite:${join(dir, 'inference.db')}`;
  const seeding = await openInferenceDatabase(url);
  const seeded = await seed(seeding.db);
  await seeding.close();
  const upstream = await startFixedUpstream();
  const parsed = inferenceConfigSchema.parse({
    port: 0,
    database: url,
    auth: { demo: false },
    models: [{ id: UI_MODEL, contextLength: 4096, backend: { type: 'upstream', replicas: [upstream.origin] } }],
    ...config,
  });
  const app = await buildInferenceApp(parsed, { logger, dataDir: dir, accessLog: false });
  const base = await listen(app);
  return {
    base,
    url,
    seeded,
    close: async () => {
      await closeGracefully(app, 2_000);
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
