// Test and benchmark support without a test framework: benchmark scripts import this directly.
export { createTestDatabase, postgresAvailable, type TestDatabase, type TestDialect, testPgUrl } from './databases.js';
export { type BodyAnswer, NO_STALL, nestedJson, postBody, whileProbingHealth } from './hostile-body.js';
export { type CapturedLog, captureLog, listen, silentLogger, testHttpConfig } from './http.js';
export {
  countBackends,
  type OutageObservation,
  type OutageSample,
  observeOutage,
  tagConnections,
  terminateBackends,
} from './outage.js';
export { type RawResponse, rawHttp, rawRequest } from './raw-http.js';
export { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from './throwaway-postgres.js';
export { until } from './until.js';
