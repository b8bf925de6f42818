import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { deleteProjectRow } from '../storage/organizations.js';
import { createProject, listProjects, projectNameTaken, updateProject } from '../storage/projects.js';
import { checkProjectLimit } from '../storage/rate-limits.js';
import type { Project } from '../storage/types.js';
import { jsonProject } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { slugForName } from '../wire/slug.js';
import { organizationFor, projectFor } from './access.js';
import { actorOf, requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint } from './problems.js';
import { listQuery, nullable, pathParams, resourceName, slugField } from './schemas.js';

const visibility = { type: 'string', enum: ['public', 'private'] };
const url = { type: 'string', format: 'uri', maxLength: 2048 };
const newProject = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: resourceName, slug: slugField, url: nullable(url), visibility },
};
const projectPatch = {
  type: 'object',
  additionalProperties: false,
  properties: { name: resourceName, slug: slugField, url: nullable(url), visibility },
};

type NewProjectBody = { name: string; slug?: string; url?: string | null; visibility?: Project['visibility'] };
type ListProjectsQuery = PaginationQuery & { name?: string; search?: string };

export function registerProjectRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.get<{ Querystring: ListProjectsQuery }>(
    '/v0/projects',
    { schema: { querystring: listQuery(['name']) } },
    async (request, reply) => {
      const actor = await actorOf(context, request);
      const visibleTo =
        actor.kind === 'project_key'
          ? ({ kind: 'project', uuid: actor.projectUuid } as const)
          : actor.kind === 'user' && actor.user.admin
            ? ({ kind: 'all' } as const)
            : ({ kind: 'user', uuid: actor.kind === 'user' ? actor.user.uuid : undefined } as const);
      const { name, search } = request.query;
      const listed = await listProjects(db, { visibleTo, name, search }, pageOf(request.query));
      return sendList(reply, listed.rows.map(jsonProject), listed.total);
    },
  );

  app.get<{ Params: { organization: string }; Querystring: ListProjectsQuery }>(
    '/v0/organizations/:organization/projects',
    { schema: { params: pathParams('organization'), querystring: listQuery(['name']) } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'view');
      const { name, search } = request.query;
      const listed = await listProjects(
        db,
        { organization: organization.uuid, visibleTo: { kind: 'all' }, name, search },
        pageOf(request.query),
      );
      return sendList(reply, listed.rows.map(jsonProject), listed.total);
    },
  );

  app.post<{ Params: { organization: string }; Body: NewProjectBody }>(
    '/v0/organizations/:organization/projects',
    { schema: { params: pathParams('organization'), body: newProject } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'create');
      const { name } = request.body;
      const project = await db.transaction().execute(async (trx) => {
        await checkProjectLimit(trx, organization.uuid, context.config.plus.rateLimiting.resourcesPerDay);
        if (await projectNameTaken(trx, organization.uuid, name)) {
          throw new HttpError(409, 'conflict', `Project (${name}) already exists in this organization`);
        }
        return conflictOnConstraint(
          createProject(trx, {
            organizationUuid: organization.uuid,
            name,
            slug: request.body.slug ?? slugForName(name),
            url: request.body.url ?? null,
            visibility: request.body.visibility ?? 'public',
            maintainer: user.uuid,
          }),
          'Project',
        );
      });
      return reply.code(201).send(jsonProject(project));
    },
  );

  app.get<{ Params: { project: string } }>(
    '/v0/projects/:project',
    { schema: { params: pathParams('project') } },
    async (request) => jsonProject((await projectFor(context, request, request.params.project, 'view')).project),
  );

  app.patch<{ Params: { project: string }; Body: Partial<NewProjectBody> }>(
    '/v0/projects/:project',
    { schema: { params: pathParams('project'), body: projectPatch } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'edit', { userOnly: true });
      const changes = request.body;
      if (changes.name !== undefined && changes.name !== project.name) {
        if (await projectNameTaken(db, project.organization_uuid, changes.name)) {
          throw new HttpError(409, 'conflict', `Project (${changes.name}) already exists in this organization`);
        }
      }
      const now = Date.now();
      await conflictOnConstraint(updateProject(db, project.uuid, changes, now), 'Project');
      return jsonProject({ ...project, ...changes, modified: now } as Project);
    },
  );

  app.delete<{ Params: { project: string } }>(
    '/v0/projects/:project',
    { schema: { params: pathParams('project') } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'delete', { userOnly: true });
      await deleteProjectRow(db, project.uuid);
      return reply.code(204).send();
    },
  );
}
