import { existsSync } from 'node:fs';
import { ConfigError, type Logger } from '@atrium/core';
import type { InferenceConfig, ModelConfig } from './config.js';
import { EngineSupervisor } from './engine/supervisor.js';
import { TEST_MODEL_CONTEXT_LENGTH } from './gguf/test-model.js';
import { ensureTestModel, TEST_MODEL_ID, testModelPath } from './gguf/test-model-file.js';
import { Replica } from './router/replica.js';
import { UpstreamGroup } from './router/upstream-group.js';

export interface ServedModel {
  config: ModelConfig;
  /** The name the model server knows the model by. */
  upstreamName: string;
  /** Set when that name differs from the public id, which responses must show instead. */
  rename: { from: string; to: string } | undefined;
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

/**
 * The models the gateway serves, each behind an upstream group: the configured replicas, or one replica whose
 * address follows an embedded engine process through its restarts.
 */
export class Catalogue {
  private constructor(
    private readonly models: Map<string, ServedModel>,
    private readonly supervisors: EngineSupervisor[],
    readonly streamKeepaliveMs: number,
  ) {}

  static async open(config: InferenceConfig, dataDir: string, logger: Logger): Promise<Catalogue> {
    const models = new Map<string, ServedModel>();
    const supervisors: EngineSupervisor[] = [];
    for (const model of servedModelConfigs(config)) {
      const backend = model.backend;
      let served: ServedModel;
      if (backend.type === 'upstream') {
        const replicas = backend.replicas.map((origin) => new Replica(origin, config.routing));
        const upstreamName = backend.model ?? model.id;
        served = {
          config: model,
          upstreamName,
          rename: upstreamName === model.id ? undefined : { from: upstreamName, to: model.id },
          group: new UpstreamGroup(model.id, replicas, backend.apiKey),
        };
      } else {
        const modelPath = backend.path ?? testModelPath(dataDir);
        if (backend.path === undefined) ensureTestModel(modelPath);
        else if (!existsSync(modelPath)) {
          throw new ConfigError(`config error: inference model ${model.id}: backend.path ${modelPath}: no such file`);
        }
        const replica = new Replica(undefined, config.routing);
        const engine = {
          modelPath,
          modelName: model.id,
          threads: backend.threads,
          sequences: backend.sequences,
          contextSize: model.contextLength,
          host: '127.0.0.1',
          port: 0,
        };
        supervisors.push(
          new EngineSupervisor(engine, logger, {
            onReady: (origin) => replica.setOrigin(origin),
            onDown: () => replica.setOrigin(undefined),
          }),
        );
        served = {
          config: model,
          upstreamName: model.id,
          rename: undefined,
          group: new UpstreamGroup(model.id, [replica], undefined),
        };
      }
      served.group.startHealthChecks(config.routing.healthIntervalMs);
      models.set(model.id, served);
    }
    const catalogue = new Catalogue(models, supervisors, config.routing.streamKeepaliveMs);
    await Promise.all(supervisors.map((s) => s.start()));
    return catalogue;
  }

  get(id: string): ServedModel | undefined {
    return this.models.get(id);
  }

  get list(): ModelConfig[] {
    return [...this.models.values()].map((m) => m.config);
  }

  async close(): Promise<void> {
    await Promise.all(this.supervisors.map((s) => s.stop()));
    await Promise.all([...this.models.values()].map((m) => m.group.close()));
  }
}
