import type { ServiceDefinition } from '@atrium/core';
import { buildProvenanceApp } from './app.js';
import { type ProvenanceConfig, provenanceConfigSchema } from './config.js';
import { API_PREFIX } from './http/server-routes.js';

export { buildProvenanceApp } from './app.js';
export { type OpenedArchive, openArchive } from './archive/open-archive.js';
export { BUNDLED_ARCHIVE, type ProvenanceConfig, provenanceConfigSchema } from './config.js';
export { API_PREFIX, API_VERSION } from './http/server-routes.js';
export { type ArchiveRecord, listArchives, recordArchive } from './storage/archives.js';
export { openProvenanceDatabase } from './storage/open.js';
export { aiidaJson } from './wire/json.js';

export const provenanceService: ServiceDefinition<ProvenanceConfig> = {
  name: 'provenance',
  configSchema: provenanceConfigSchema,
  build: buildProvenanceApp,
  describe: (config, baseUrl) =>
    `${baseUrl}${API_PREFIX}/ (${config.sources.map((s) => `/${s.name}${API_PREFIX}`).join(', ')})`,
};
export { type MadeArchive, makeArchive } from './archive/make-archive.js';
export { inspectSource, type SourceReport } from './inspect.js';
