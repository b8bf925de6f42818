import { randomUUID } from 'node:crypto';
import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import type { NewReport } from '../domain/new-report.js';
import { ciForbidsOnTheFly, onTheFlyProject, type RunContext, runDefaults } from '../domain/run-context.js';
import { claimOrganization, createOrganization } from '../storage/organizations.js';
import { createProject, findProject } from '../storage/projects.js';
import { countAnonymousCreation } from '../storage/rate-limits.js';
import type { Project } from '../storage/types.js';
import { isUuid, parseResourceId } from '../wire/slug.js';
import { actorUser, projectFor } from './access.js';
import { type Actor, actorOf } from './auth.js';
import type { BenchContext } from './context.js';
import { badRequest, notFound } from './problems.js';
import { createReport } from './report-routes.js';
import { newReportProperties, nullable, resourceIdField } from './schemas.js';

type RunBody = Omit<NewReport, 'branch' | 'testbed'> & {
  project?: string | null;
  branch?: string | null;
  testbed?: string | null;
  context?: RunContext | null;
  idempotency_key?: string | null;
};

const runSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['start_time', 'end_time', 'results'],
  properties: {
    ...newReportProperties,
    branch: nullable(newReportProperties.branch),
    testbed: nullable(newReportProperties.testbed),
    project: nullable(resourceIdField),
    context: nullable({ type: 'object', maxProperties: 64, additionalProperties: { type: 'string', maxLength: 1024 } }),
    idempotency_key: nullable({ type: 'string', format: 'uuid' }),
  },
};

/** Creates the project a run names but nobody made yet: in the caller's organisation, else a new one. */
async function createOnTheFly(
  context: BenchContext,
  actor: Actor,
  address: string,
  name: string,
  slug: string,
): Promise<Project> {
  return context.database.db.transaction().execute(async (trx) => {
    if (actor.kind !== 'user') {
      await countAnonymousCreation(trx, address, context.config.plus.rateLimiting.anonymousProjectsPerDay);
    }
    let organizationUuid: string | undefined;
    if (actor.kind === 'user') {
      const led = await trx
        .selectFrom('organization_role')
        .innerJoin('organization', 'organization.uuid', 'organization_role.organization_uuid')
        .select('organization.uuid')
        .where('organization_role.user_uuid', '=', actor.user.uuid)
        .where('organization_role.role', '=', 'leader')
        .where('organization.deleted', 'is', null)
        .orderBy('organization.created')
        .executeTakeFirst();
      organizationUuid = led?.uuid;
    }
    if (!organizationUuid) {
      const owner = actor.kind === 'user' ? actor.user : undefined;
      const organization = await createOrganization(trx, {
        name: owner?.name ?? name,
        slug: owner?.slug ?? randomUUID(),
        leader: owner?.uuid,
      });
      organizationUuid = organization.uuid;
    }
    return createProject(trx, {
      organizationUuid,
      name,
      slug,
      url: null,
      visibility: 'public',
      maintainer: actor.kind === 'user' ? actor.user.uuid : undefined,
    });
  });
}

export function registerRunRoutes(app: FastifyInstance, context: BenchContext): void {
  app.post<{ Body: RunBody }>('/v0/run', { schema: { body: runSchema } }, async (request, reply) => {
    const actor = await actorOf(context, request);
    const body = request.body;
    const runContext = body.context ?? {};
    let projectId = body.project ?? undefined;
    if (actor.kind === 'project_key') {
      if (projectId !== undefined) {
        const named = await findProject(context.database.db, parseResourceId(projectId));
        if (named?.uuid !== actor.projectUuid)
          throw new HttpError(401, 'unauthorized', 'Invalid project key for this project.');
      }
      projectId = actor.projectUuid;
    }
    const onTheFly = projectId === undefined ? onTheFlyProject(runContext) : undefined;
    const lookup = projectId ?? (onTheFly as { slug: string }).slug;
    let project: Project;
    const existing = await findProject(context.database.db, parseResourceId(lookup));
    if (existing && existing.claimed === null && actor.kind !== 'project_key') {
      // Anyone may report to an unclaimed project; the first signed-in user to do so claims it.
      const now = Date.now();
      const claimed =
        actor.kind === 'user' &&
        (await claimOrganization(context.database.db, existing.organization_uuid, actor.user.uuid, now));
      project = claimed ? { ...existing, claimed: now } : existing;
    } else if (existing) {
      project = (await projectFor(context, request, lookup, 'create')).project;
    } else {
      if (projectId !== undefined && isUuid(projectId)) throw notFound('Project', projectId);
      if (ciForbidsOnTheFly(runContext)) {
        throw badRequest('Creating a project on the fly in CI requires --ci-on-the-fly.');
      }
      project = await createOnTheFly(context, actor, request.ip, onTheFly?.name ?? lookup, onTheFly?.slug ?? lookup);
    }
    const defaults = runDefaults(body, runContext);
    const { project: _project, context: _context, idempotency_key: idempotencyKey, ...report } = body;
    const json = await createReport(
      context,
      project,
      actorUser(actor),
      { ...report, branch: defaults.branch, testbed: defaults.testbed, hash: defaults.hash ?? null },
      idempotencyKey?.toLowerCase() ?? undefined,
    );
    return reply.code(201).send(json);
  });
}
