import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { benchDatabaseUrl } from '../admin.js';
import { pushSnapshot, snapshotDatabase } from '../storage/backup.js';
import { toDateTime } from '../wire/time.js';
import { requireAdmin } from './auth.js';
import type { BenchContext } from './context.js';
import { nullable } from './schemas.js';

type BackupBody = { compress?: boolean | null; data_store?: string | null; remove?: boolean | null };

const backupBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    compress: nullable({ type: 'boolean' }),
    data_store: nullable({ type: 'string', enum: ['aws_s3'] }),
    remove: nullable({ type: 'boolean' }),
  },
};

/** `POST /v0/server/backup` (server admins): snapshot, optionally compress, push and remove the local copy. */
export function registerBackupRoutes(app: FastifyInstance, context: BenchContext): void {
  app.post<{ Body: BackupBody | undefined }>(
    '/v0/server/backup',
    { schema: { body: backupBody } },
    async (request, reply) => {
      await requireAdmin(context, request);
      const body = request.body ?? {};
      const { pushCommand, directory } = context.config.backup;
      if (body.data_store && !pushCommand) {
        throw new HttpError(400, 'bad_request', 'No data store is configured (backup.pushCommand).');
      }
      const now = Date.now();
      const file = await snapshotDatabase(context.database, benchDatabaseUrl(context.config, context.dataDir), {
        directory: directory ?? join(context.dataDir, 'backup'),
        compress: body.compress === true,
        now,
      });
      if (body.data_store && pushCommand) await pushSnapshot(pushCommand, file);
      if (body.remove) rmSync(file, { force: true });
      return reply.code(201).send({ created: toDateTime(now) });
    },
  );
}
