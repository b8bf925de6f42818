import { hostname } from 'node:os';
import { type Logger, RepeatingFailureLog } from '@atrium/core';
import type { Kysely } from 'kysely';
import { type Catalogue, servedModelConfigs } from './catalogue.js';
import { diffCatalogues, fingerprintOf, isNoChange } from './catalogue-diff.js';
import type { InferenceConfig } from './config.js';
import {
  catalogueVersion,
  forgetProcessLoad,
  recordLoadedCatalogue,
  recordProcessLoad,
  touchProcessLoad,
} from './storage/catalogue-state.js';
import type { InferenceDatabase } from './storage/schema.js';

/** How often each process looks for a version published by `atrium inference reload`. */
const POLL_MS = 1_000;
/** Every this many polls, the process marks its row in `catalogue_load` as alive. */
const TOUCH_EVERY = 5;

/** A configuration error's message without the rejected value it quotes, which could be a secret. */
export const withoutValue = (message: string) => message.replace(/ \(got .*\)(?=( \[from [^\]]*\])?$)/, '');

/**
 * Reloads the catalogue from the configuration's sources (those `atrium serve` started with) on SIGHUP, which
 * reaches one process, and when `atrium inference reload` raises the version in the database, which every
 * gateway process on that database polls each second. Reloads run one at a time; a configuration that does
 * not load is logged and the catalogue in use stays. What each process did with a published version is kept
 * in `catalogue_load`, where the command reads it.
 */
export class CatalogueReloader {
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly pollFailures: RepeatingFailureLog;
  private polls = 0;
  private readonly processName = `${hostname()}:${process.pid}`;
  private readonly onHangup = () => void this.reload('SIGHUP');

  private constructor(
    private readonly catalogue: Catalogue,
    private readonly db: Kysely<InferenceDatabase>,
    private readonly readConfig: () => InferenceConfig,
    private readonly logger: Logger,
    private seenVersion: number,
  ) {
    this.pollFailures = new RepeatingFailureLog(logger, {
      failed: 'reading the catalogue version failed',
      recovered: 'reading the catalogue version works again',
    });
  }

  static async start(
    catalogue: Catalogue,
    db: Kysely<InferenceDatabase>,
    readConfig: () => InferenceConfig,
    logger: Logger,
  ): Promise<CatalogueReloader> {
    await recordLoadedCatalogue(db, fingerprintOf(catalogue.list), Date.now());
    const reloader = new CatalogueReloader(catalogue, db, readConfig, logger, await catalogueVersion(db));
    await recordProcessLoad(db, {
      process: reloader.processName,
      version: reloader.seenVersion,
      error: null,
      seen: Date.now(),
    });
    process.on('SIGHUP', reloader.onHangup);
    // A reload published while this process started may have come after its configuration was read.
    if (reloader.configuredCatalogueDiffers()) void reloader.reload('configuration changed while starting');
    let polling = false;
    reloader.timer = setInterval(() => {
      if (polling) return;
      polling = true;
      void reloader.poll().finally(() => {
        polling = false;
      });
    }, POLL_MS);
    reloader.timer.unref();
    return reloader;
  }

  private configuredCatalogueDiffers(): boolean {
    try {
      const configured = fingerprintOf(servedModelConfigs(this.readConfig()));
      return !isNoChange(diffCatalogues(fingerprintOf(this.catalogue.list), configured));
    } catch {
      return false; // the next reload reports what does not load
    }
  }

  private async poll(): Promise<void> {
    let version: number;
    try {
      version = await catalogueVersion(this.db);
      if (++this.polls % TOUCH_EVERY === 0) await touchProcessLoad(this.db, this.processName, Date.now());
    } catch (error) {
      this.pollFailures.failed(error);
      return;
    }
    this.pollFailures.succeeded();
    if (version <= this.seenVersion) return;
    this.seenVersion = version;
    // Not awaited: polls, and the liveness touch `atrium inference reload` relies on, go on while an engine starts.
    void this.reload(`catalogue version ${version}`, version);
  }

  /** Re-reads the configuration and loads its catalogue, after any reload under way. */
  reload(reason: string, version?: number): Promise<void> {
    if (this.closed) return this.queue;
    this.queue = this.queue.then(() => this.reloadNow(reason, version));
    return this.queue;
  }

  private async reloadNow(reason: string, version: number | undefined): Promise<void> {
    const before = fingerprintOf(this.catalogue.list);
    let error: string | null = null;
    try {
      await this.catalogue.reload(this.readConfig());
    } catch (failure) {
      error = withoutValue((failure as Error).message);
      this.logger.error({ reason, error }, 'catalogue reload failed; the catalogue stays');
    }
    if (error === null) {
      const after = fingerprintOf(this.catalogue.list);
      this.logger.info({ reason, ...diffCatalogues(before, after) }, 'catalogue reloaded');
      await recordLoadedCatalogue(this.db, after, Date.now()).catch((failure: unknown) =>
        this.logger.warn({ err: failure }, 'recording the loaded catalogue failed'),
      );
    }
    if (version === undefined) return;
    const load = { process: this.processName, version, error, seen: Date.now() };
    await recordProcessLoad(this.db, load).catch((failure: unknown) =>
      this.logger.warn({ err: failure }, 'recording the catalogue load failed'),
    );
  }

  /** Stops listening, waits for a reload under way, and leaves `catalogue_load`. */
  async close(): Promise<void> {
    this.closed = true;
    process.off('SIGHUP', this.onHangup);
    clearInterval(this.timer);
    await this.queue;
    await forgetProcessLoad(this.db, this.processName).catch(() => undefined);
  }
}
