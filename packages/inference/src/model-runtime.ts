import { existsSync } from 'node:fs';
import { ConfigError, type Logger } from '@atrium/core';
import type { ModelConfig, RoutingConfig } from './config.js';
import { EngineSupervisor } from './engine/supervisor.js';
import { ensureTestModel, testModelPath } from './gguf/test-model-file.js';
import type { ConnectionWaits } from './router/connection-waits.js';
import { Replica } from './router/replica.js';
import { UpstreamGroup } from './router/upstream-group.js';

/**
 * What serves one model: its upstream group and, for an embedded backend, the engine process behind it.
 * A reload keeps a runtime whose `key` is unchanged, so only models whose backend changed are restarted.
 */
export interface ModelRuntime {
  /** Equal for two model definitions that can share this runtime. */
  key: string;
  /** The name the model server knows the model by. */
  upstreamName: string;
  group: UpstreamGroup;
  /** Starts the engine (resolves when it is ready or its first attempt failed); nothing for upstreams. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The runtime key: the backend, what an engine is started with, and the routing settings of the replicas. */
export const runtimeKey = (model: ModelConfig, routing: RoutingConfig): string =>
  JSON.stringify([model.id, model.backend, model.backend.type === 'embedded' ? model.contextLength : null, routing]);

/** The GGUF file of an embedded model (the generated test model when none is named); a missing file is a ConfigError. */
export function embeddedModelPath(model: ModelConfig, dataDir: string): string | undefined {
  if (model.backend.type !== 'embedded') return undefined;
  const path = model.backend.path;
  if (path !== undefined && !existsSync(path))
    throw new ConfigError(`config error: inference model ${model.id}: backend.path ${path}: no such file`);
  return path ?? testModelPath(dataDir);
}

/** Creates the runtime of one model; an embedded engine is not started until `start()`. */
export function openModelRuntime(
  model: ModelConfig,
  routing: RoutingConfig,
  dataDir: string,
  logger: Logger,
  waits: ConnectionWaits,
): ModelRuntime {
  const key = runtimeKey(model, routing);
  const backend = model.backend;
  if (backend.type === 'upstream') {
    const replicas = backend.replicas.map((origin) => new Replica(origin, routing, waits));
    const group = new UpstreamGroup(model.id, replicas, backend.apiKey);
    group.startHealthChecks(routing.healthIntervalMs);
    return { key, upstreamName: backend.model ?? model.id, group, start: async () => {}, close: () => group.close() };
  }
  const modelPath = embeddedModelPath(model, dataDir) as string;
  if (backend.path === undefined) ensureTestModel(modelPath);
  const replica = new Replica(undefined, routing, waits);
  const group = new UpstreamGroup(model.id, [replica], undefined);
  group.startHealthChecks(routing.healthIntervalMs);
  const engine = {
    modelPath,
    modelName: model.id,
    threads: backend.threads,
    sequences: backend.sequences,
    contextSize: model.contextLength,
    host: '127.0.0.1',
    port: 0,
  };
  const supervisor = new EngineSupervisor(engine, logger, {
    onReady: (origin) => replica.setOrigin(origin),
    onDown: () => replica.setOrigin(undefined),
  });
  return {
    key,
    upstreamName: model.id,
    group,
    start: () => supervisor.start(),
    close: async () => {
      await supervisor.stop();
      await group.close();
    },
  };
}
