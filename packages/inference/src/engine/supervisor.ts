import type { Logger } from '@atrium/core';
import type { EngineOptions } from './options.js';
import { type EngineProcess, spawnEngine } from './process.js';

export interface SupervisorEvents {
  /** The engine listens at `origin` (again, after a restart). */
  onReady(origin: string): void;
  /** The engine died; requests must not be sent to the old origin. */
  onDown(): void;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** A run at least this long resets the delay. */
  stableMs: number;
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000, stableMs: 30_000 };

/** The restart delay after `failures` consecutive short-lived runs. */
export function restartDelay(failures: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, failures - 1));
}

/**
 * Keeps one engine process running: starts it, and when it dies (a crash, an aborting model file, a kill)
 * starts it again after an exponentially growing delay.
 */
export class EngineSupervisor {
  private current: EngineProcess | undefined;
  private failures = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: EngineOptions,
    private readonly logger: Logger,
    private readonly events: SupervisorEvents,
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
  ) {}

  get origin(): string | undefined {
    return this.current?.origin;
  }

  /** The running engine's process id, for operators (and tests) that need to signal it. */
  get pid(): number | undefined {
    return this.current?.child.pid;
  }

  /** Starts the first process; resolves once it is ready or its first attempt failed (restarts continue). */
  async start(): Promise<void> {
    await this.launch();
  }

  private async launch(): Promise<void> {
    if (this.stopped) return;
    const model = this.options.modelName;
    const startedAt = Date.now();
    let engine: EngineProcess;
    try {
      engine = await spawnEngine(this.options, (line) => this.logger.warn({ model, line }, 'engine stderr'));
    } catch (error) {
      this.failures++;
      this.logger.error({ model, err: error }, 'engine failed to start');
      return this.scheduleRestart();
    }
    if (this.stopped) return engine.stop();
    this.current = engine;
    this.logger.info({ model, origin: engine.origin, ms: Date.now() - startedAt }, 'engine ready');
    this.events.onReady(engine.origin);
    void engine.exited.then((code) => {
      this.current = undefined;
      if (this.stopped) return;
      this.events.onDown();
      this.failures = Date.now() - startedAt >= this.backoff.stableMs ? 1 : this.failures + 1;
      this.logger.error({ model, code }, 'engine exited');
      this.scheduleRestart();
    });
  }

  private scheduleRestart(): void {
    if (this.stopped) return;
    const delay = restartDelay(this.failures, this.backoff);
    this.logger.info({ model: this.options.modelName, delayMs: delay }, 'restarting engine');
    this.timer = setTimeout(() => void this.launch(), delay);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current?.stop();
  }
}
