import type { ServiceDefinition } from '@atrium/core';
import { buildInferenceApp } from './app.js';
import { type InferenceConfig, inferenceConfigSchema } from './config.js';

export { buildInferenceApp } from './app.js';
export { type InferenceConfig, inferenceConfigSchema, type ModelConfig } from './config.js';
export { openInferenceDatabase } from './storage/open.js';
export { createProject, listProjects, type Project } from './storage/projects.js';

export const inferenceService: ServiceDefinition<InferenceConfig> = {
  name: 'inference',
  configSchema: inferenceConfigSchema,
  build: buildInferenceApp,
  describe: (_config, baseUrl) => `${baseUrl}/v1/`,
};
