import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { HttpConfig } from './config/fields.js';
import type { Logger } from './log/logger.js';

export interface ServiceContext<C = unknown> {
  logger: Logger;
  /** Directory for embedded defaults (SQLite files, archives, models). */
  dataDir: string;
  accessLog: boolean;
  /** Reads the service's configuration again from the sources it was started with (file, environment, flags). */
  readConfig?: () => C;
}

/** What each service package exports so the CLI can run it alone or beside the others. */
export interface ServiceDefinition<C extends HttpConfig = HttpConfig> {
  name: string;
  configSchema: z.ZodType<C>;
  /** Builds the app (opening and migrating its database); `app.close()` releases everything. */
  build(config: C, context: ServiceContext<C>): Promise<FastifyInstance>;
  /** Extra lines for the start banner (e.g. where the API root is). */
  describe?(config: C, baseUrl: string): string;
}
