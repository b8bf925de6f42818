import type { ServiceDefinition } from '@atrium/core';
import { buildInferenceApp } from './app.js';
import { describeInference } from './banner.js';
import { type InferenceConfig, inferenceConfigSchema } from './config.js';

export { buildInferenceApp } from './app.js';
export { servedModelConfigs } from './catalogue.js';
export { type CatalogueChange, diffCatalogues, fingerprintOf, isNoChange } from './catalogue-diff.js';
export { type InferenceConfig, inferenceConfigSchema, type ModelConfig } from './config.js';
export type { EngineOptions } from './engine/options.js';
export { type EngineProcess, spawnEngine } from './engine/process.js';
export { buildTestModel, TEST_MODEL_CONTEXT_LENGTH, TEST_MODEL_REPLY } from './gguf/test-model.js';
export { TEST_MODEL_ID, testModelPath, writeTestModel } from './gguf/test-model-file.js';
export { embeddedModelPath } from './model-runtime.js';
export { type ProcessLoad, processLoads, publishCatalogue } from './storage/catalogue-state.js';
export { inferenceDatabaseUrl, openInferenceDatabase } from './storage/open.js';
export { USAGE_GROUPS, type UsageGroup } from './storage/operator-listings.js';
export { createProject, listProjects, type Project } from './storage/projects.js';
export { ANNOUNCEMENT_TITLE_LIMIT } from './tenancy/announcements.js';
export { lastDayBefore, parseEndDate } from './tenancy/dates.js';
export type { KeySettings } from './tenancy/key-settings.js';
export { OperatorCommands } from './tenancy/operator.js';
export { toCsv } from './tenancy/usage-days.js';

export const inferenceService: ServiceDefinition<InferenceConfig> = {
  name: 'inference',
  configSchema: inferenceConfigSchema,
  build: buildInferenceApp,
  describe: describeInference,
};
