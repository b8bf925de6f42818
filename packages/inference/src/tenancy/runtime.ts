import type { Logger } from '@atrium/core';
import type { Kysely } from 'kysely';
import { withoutOperator } from '../banner.js';
import type { InferenceConfig, ModelConfig } from '../config.js';
import { hasOperator } from '../storage/accounts.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { Admission } from './admission.js';
import { demoCredentials, ensureDemoData } from './demo.js';
import { KeyStore } from './key-store.js';
import { UsageRecorder } from './usage-recorder.js';

export interface TenancyRuntime {
  keys: KeyStore;
  admission: Admission;
  /** Writes the last usage batch. */
  close(): Promise<void>;
}

/** The gateway's tenancy parts over one database: key lookup, admission, usage batching, first-start demo data. */
export async function openTenancy(
  db: Kysely<InferenceDatabase>,
  config: InferenceConfig,
  models: readonly ModelConfig[],
  logger: Logger,
  clock: () => number = Date.now,
  /** Where usage is journalled so that a crash loses none of it (see `usage-recorder.ts`). */
  usageJournalDir?: string,
): Promise<TenancyRuntime> {
  const demo = await ensureDemoData(db, config, new Set(models.map((m) => m.id)), clock());
  if (demo) demoCredentials.set(config, demo);
  if (!(await hasOperator(db))) withoutOperator.add(config);
  const keys = new KeyStore(db, clock);
  const usage = await UsageRecorder.open(db, logger, usageJournalDir);
  const admission = new Admission(db, keys, usage, logger, clock, config.tenancy);
  return {
    keys,
    admission,
    close: async () => {
      await admission.close();
      await usage.close();
    },
  };
}
