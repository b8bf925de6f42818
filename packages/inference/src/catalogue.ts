import type { Logger } from '@atrium/core';
import type { InferenceConfig, ModelConfig } from './config.js';
import { TEST_MODEL_CONTEXT_LENGTH } from './gguf/test-model.js';
import { TEST_MODEL_ID } from './gguf/test-model-file.js';
import { type ModelRuntime, openModelRuntime, runtimeKey } from './model-runtime.js';
import { ConnectionWaits } from './router/connection-waits.js';
import type { UpstreamGroup } from './router/upstream-group.js';

export interface ServedModel {
  config: ModelConfig;
  /** The name the model server knows the model by. */
  upstreamName: string;
  group: UpstreamGroup;
}

/** What `npm start` serves when no model is configured: the generated tiny test model on the embedded engine. */
export function defaultModels(): ModelConfig[] {
  return [
    {
      id: TEST_MODEL_ID,
      created: Math.floor(Date.now() / 1000),
      contextLength: TEST_MODEL_CONTEXT_LENGTH,
      modalities: ['text'],
      capabilities: { tools: false, embeddings: true, reasoning: false },
      backend: { type: 'embedded', threads: 1, sequences: 4 },
      pricing: { inputPerMillion: 1, outputPerMillion: 1 },
    },
  ];
}

/** The models a gateway with this configuration serves: the configured ones, else the embedded default. */
export const servedModelConfigs = (config: InferenceConfig): ModelConfig[] =>
  config.models.length > 0 ? config.models : defaultModels();

/** One loaded catalogue: the models by id, and how many requests that arrived while it was current are open. */
interface Generation {
  models: Map<string, ServedModel>;
  list: readonly ModelConfig[];
  runtimes: Map<string, ModelRuntime>;
  open: number;
  /** The runtimes the next generation no longer uses: closed once this and every older generation is drained. */
  dropped: ModelRuntime[];
}

function generationOf(models: readonly ModelConfig[], runtimes: Map<string, ModelRuntime>): Generation {
  const served = new Map<string, ServedModel>();
  for (const config of models) {
    const runtime = runtimes.get(config.id) as ModelRuntime;
    const { upstreamName, group } = runtime;
    served.set(config.id, { config, upstreamName, group });
  }
  return { models: served, list: models, runtimes, open: 0, dropped: [] };
}

/**
 * The models the gateway serves, each behind an upstream group: the configured replicas, or one replica whose
 * address follows an embedded engine process through its restarts.
 *
 * `reload` swaps in a new catalogue. A request looks its model up once and keeps that definition to its end;
 * every request is counted against the catalogue current when it arrived (`pin`), and the upstream groups and
 * engines a reload dropped are closed once every request that arrived before it has ended.
 */
export class Catalogue {
  private current: Generation;
  /** Replaced generations in order, oldest first, until they are drained. */
  private readonly retired: Generation[] = [];

  private constructor(
    initial: Generation,
    private readonly dataDir: string,
    private readonly logger: Logger,
    public streamKeepaliveMs: number,
    /** Requests waiting for upstream connections, over every model (for `/metrics`). */
    readonly connectionWaits: ConnectionWaits,
  ) {
    this.current = initial;
  }

  static async open(config: InferenceConfig, dataDir: string, logger: Logger): Promise<Catalogue> {
    const models = servedModelConfigs(config);
    const runtimes = new Map<string, ModelRuntime>();
    const waits = new ConnectionWaits(logger);
    try {
      for (const model of models)
        runtimes.set(model.id, openModelRuntime(model, config.routing, dataDir, logger, waits));
    } catch (error) {
      await Promise.all([...runtimes.values()].map((r) => r.close()));
      throw error;
    }
    await Promise.all([...runtimes.values()].map((r) => r.start()));
    return new Catalogue(generationOf(models, runtimes), dataDir, logger, config.routing.streamKeepaliveMs, waits);
  }

  get(id: string): ServedModel | undefined {
    return this.current.models.get(id);
  }

  /** The served definitions; the same array until the next reload. */
  get list(): readonly ModelConfig[] {
    return this.current.list;
  }

  /** Counts a request against the current catalogue until `response` closes. */
  pin(response: { once(event: 'close', listener: () => void): unknown }): void {
    const generation = this.current;
    generation.open++;
    response.once('close', () => {
      generation.open--;
      if (generation.open === 0 && this.retired[0] === generation) this.closeDrained();
    });
  }

  /**
   * Serves `config`'s models from now on: unchanged backends keep their runtime, new ones are started (new
   * engines are ready before any request reaches them), dropped ones close when the requests before this end.
   * A configuration that cannot be loaded throws and leaves the catalogue as it was.
   */
  async reload(config: InferenceConfig): Promise<void> {
    const models = servedModelConfigs(config);
    const old = this.current;
    const runtimes = new Map<string, ModelRuntime>();
    const started: ModelRuntime[] = [];
    try {
      for (const model of models) {
        let runtime = old.runtimes.get(model.id);
        if (runtime?.key !== runtimeKey(model, config.routing)) {
          runtime = openModelRuntime(model, config.routing, this.dataDir, this.logger, this.connectionWaits);
          started.push(runtime);
        }
        runtimes.set(model.id, runtime);
      }
    } catch (error) {
      await Promise.all(started.map((r) => r.close()));
      throw error;
    }
    await Promise.all(started.map((r) => r.start()));
    const kept = new Set(runtimes.values());
    old.dropped = [...old.runtimes.values()].filter((r) => !kept.has(r));
    this.current = generationOf(models, runtimes);
    this.streamKeepaliveMs = config.routing.streamKeepaliveMs;
    this.retired.push(old);
    this.closeDrained();
  }

  private closeDrained(): void {
    while (this.retired[0]?.open === 0) {
      const drained = this.retired.shift() as Generation;
      for (const runtime of drained.dropped)
        runtime.close().catch((error) => this.logger.error({ err: error }, 'closing a dropped model failed'));
    }
  }

  async close(): Promise<void> {
    const all = new Set([...this.retired.flatMap((g) => g.dropped), ...this.current.runtimes.values()]);
    this.retired.length = 0;
    await Promise.all([...all].map((r) => r.close()));
  }
}
