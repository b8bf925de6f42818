import type { ServiceDefinition } from '@atrium/core';
import { buildProvenanceApp } from './app.js';
import { type ProvenanceConfig, provenanceConfigSchema } from './config.js';
import { API_PREFIX } from './http/server-routes.js';

export { buildProvenanceApp } from './app.js';
export { type MadeArchive, makeArchive } from './archive/make-archive.js';
export { type OpenedArchive, openArchive } from './archive/open-archive.js';
export { SHAPES, type Shape } from './archive/shaped-graph.js';
export { SYNTHETIC_GRAPH_VERSION } from './archive/synthetic-graph.js';
export { BUNDLED_ARCHIVE, type ProvenanceConfig, provenanceConfigSchema } from './config.js';
export { API_PREFIX, API_VERSION } from './http/server-routes.js';
export { inspectSource, type SourceReport } from './inspect.js';
export { copyAiidaRows } from './storage/aiida/copy.js';
export { createAiidaTables, createServingIndexes } from './storage/aiida/ddl.js';
export type { AiidaDatabase } from './storage/aiida/schema.js';
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
