import type { FastifyInstance } from 'fastify';
import {
  createOrganization,
  deleteOrganization,
  listOrganizations,
  updateOrganization,
} from '../storage/organizations.js';
import { jsonOrganization } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { slugify } from '../wire/slug.js';
import { organizationFor } from './access.js';
import { requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint } from './problems.js';
import { listQuery, pathParams, resourceName, slugField } from './schemas.js';

const newOrganization = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: resourceName, slug: slugField },
};
const updateOrganizationBody = {
  type: 'object',
  additionalProperties: false,
  properties: { name: resourceName, slug: slugField },
};

type OrgParams = { organization: string };

export function registerOrganizationRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.get<{ Querystring: PaginationQuery & { name?: string; search?: string } }>(
    '/v0/organizations',
    { schema: { querystring: listQuery(['name']) } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const { name, search } = request.query;
      const listed = await listOrganizations(
        db,
        { member: user.admin ? undefined : user.uuid, name, search },
        pageOf(request.query),
      );
      return sendList(reply, listed.rows.map(jsonOrganization), listed.total);
    },
  );

  app.post<{ Body: { name: string; slug?: string } }>(
    '/v0/organizations',
    { schema: { body: newOrganization } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const slug = request.body.slug ?? slugify(request.body.name);
      const organization = await conflictOnConstraint(
        createOrganization(db, { name: request.body.name, slug, leader: user.uuid }),
        'Organization',
      );
      return reply.code(201).send(jsonOrganization(organization));
    },
  );

  app.get<{ Params: OrgParams }>(
    '/v0/organizations/:organization',
    { schema: { params: pathParams('organization') } },
    async (request) => {
      const user = await requireUser(context, request);
      return jsonOrganization(await organizationFor(context, user, request.params.organization, 'view'));
    },
  );

  app.patch<{ Params: OrgParams; Body: { name?: string; slug?: string } }>(
    '/v0/organizations/:organization',
    { schema: { params: pathParams('organization'), body: updateOrganizationBody } },
    async (request) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'edit');
      await conflictOnConstraint(updateOrganization(db, organization.uuid, request.body), 'Organization');
      return jsonOrganization({ ...organization, ...request.body, modified: Date.now() });
    },
  );

  app.delete<{ Params: OrgParams }>(
    '/v0/organizations/:organization',
    { schema: { params: pathParams('organization') } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'delete');
      await db.transaction().execute((trx) => deleteOrganization(trx, organization.uuid));
      return reply.code(204).send();
    },
  );
}
