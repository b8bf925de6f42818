import type { ServiceDefinition } from '@atrium/core';
import { buildBenchApp } from './app.js';
import { type BenchConfig, benchConfigSchema } from './config.js';

export { buildBenchApp } from './app.js';
export { type BenchConfig, benchConfigSchema } from './config.js';
export { BENCHER_API_VERSION } from './http/server-routes.js';
export { openBenchDatabase } from './storage/open.js';
export { createOrganization, findOrganization, type Organization } from './storage/organizations.js';

export const benchService: ServiceDefinition<BenchConfig> = {
  name: 'bench',
  configSchema: benchConfigSchema,
  build: buildBenchApp,
  describe: (_config, baseUrl) => `${baseUrl}/v0/`,
};
