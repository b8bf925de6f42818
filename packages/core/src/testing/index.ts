export { createTestDatabase, postgresAvailable, type TestDatabase, type TestDialect, testPgUrl } from './databases.js';
export { type DialectContext, describeEachDialect } from './dual-dialect.js';
export { type CapturedLog, captureLog, listen, silentLogger } from './http.js';
