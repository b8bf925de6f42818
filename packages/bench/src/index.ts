import type { ServiceDefinition } from '@atrium/core';
import { buildBenchApp } from './app.js';
import { type BenchConfig, benchConfigSchema } from './config.js';
import { consoleUrlOf } from './wire/console-url.js';

export {
  benchDatabaseUrl,
  type CredentialKind,
  createUserAccount,
  issueCredential,
} from './admin.js';
export { buildBenchApp } from './app.js';
export { generateApiKey, KEY_PREFIX } from './auth/api-keys.js';
export { mintJwt } from './auth/jwt.js';
export { type BenchConfig, benchConfigSchema } from './config.js';
export { REPORT_LIMITS } from './domain/report-limits.js';
export { BENCHER_API_VERSION } from './http/server-routes.js';
export { jwtSecretFor } from './jwt-secret.js';
export { storeApiKey } from './storage/api-keys.js';
export { openBenchDatabase } from './storage/open.js';
export { createOrganization, findOrganization } from './storage/organizations.js';
export { type PerfQuery, perfMetrics } from './storage/perf.js';
export type { Organization } from './storage/types.js';
export { createUser, findUserByEmail } from './storage/users.js';

export const benchService: ServiceDefinition<BenchConfig> = {
  name: 'bench',
  configSchema: benchConfigSchema,
  build: buildBenchApp,
  describe: (config, baseUrl) =>
    `${baseUrl}/v0/, console ${consoleUrlOf(config, Number(new URL(baseUrl).port) || config.port)}/console`,
};
