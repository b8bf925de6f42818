export { envName } from './config/env.js';
export { ConfigError } from './config/errors.js';
export { type HttpConfig, httpFields, type LogConfig, logSchema } from './config/fields.js';
export { type LoadConfigOptions, loadConfig } from './config/load.js';
export { type Database, type OpenDatabaseOptions, openDatabase } from './db/connect.js';
export { dialectOf, type Migrations, migrateToLatest, openMigratedDatabase } from './db/migrate.js';
export { type DatabaseTarget, parseDatabaseUrl } from './db/url.js';
export {
  createHttpApp,
  type ErrorFormatter,
  type FormattedError,
  type HttpAppOptions,
  SMALL_BODY_LIMIT,
} from './http/app.js';
export { type JsonBodyParser, jsonBodyParser, MAX_JSON_NESTING } from './http/json-body.js';
export { nestsDeeperThan } from './http/json-nesting.js';
export { logProblem } from './http/log-problem.js';
export { HttpMetrics } from './http/metrics.js';
export { normalizeError } from './http/normalize-error.js';
export { HttpError, type HttpProblem } from './http/problem.js';
export { closeGracefully, onShutdownSignal } from './http/shutdown.js';
export { uuid7 } from './ids/uuid7.js';
export { createLogger, type Logger } from './log/logger.js';
export { RepeatingFailureLog, type RepeatingFailureOptions } from './log/repeating-failure.js';
export * from './mail/index.js';
export { mulberry32 } from './random/mulberry32.js';
export type { ServiceContext, ServiceDefinition } from './service.js';
export { ATRIUM_STYLE, escapeHtml, Html, html, type PageOptions, page } from './ui/index.js';
