import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import {
  claimOrganization,
  createOrganization,
  deleteOrganization,
  findOrganization,
  listOrganizations,
  organizationRole,
  updateOrganization,
} from '../storage/organizations.js';
import { countMetrics } from '../storage/usage.js';
import { jsonOrganization } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { parseResourceId, slugForName } from '../wire/slug.js';
import { toDateTime } from '../wire/time.js';
import { organizationFor } from './access.js';
import { requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint, notFound } from './problems.js';
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

/** `JsonNewClaim`: an object whose only (optional) field is `empty: null`. */
const newClaim = { type: 'object', additionalProperties: false, properties: { empty: { type: 'null' } } };

/** Bencher's usage window without a plan or licence: the last 30 days. */
const USAGE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

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
      const slug = request.body.slug ?? slugForName(request.body.name);
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

  app.post<{ Params: OrgParams }>(
    '/v0/organizations/:organization/claim',
    { schema: { params: pathParams('organization'), body: newClaim } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const id = request.params.organization;
      const organization = await findOrganization(db, parseResourceId(id));
      if (!organization) throw notFound('Organization', id);
      const now = Date.now();
      if (organization.claimed === null && (await claimOrganization(db, organization.uuid, user.uuid, now))) {
        return reply.code(201).send(jsonOrganization({ ...organization, claimed: now }));
      }
      // A claimed organisation is as hidden from strangers as any other.
      if (!user.admin && !(await organizationRole(db, organization.uuid, user.uuid)))
        throw notFound('Organization', id);
      throw new HttpError(409, 'conflict', `This organization (${organization.uuid}) has already been claimed.`);
    },
  );

  app.get<{ Params: OrgParams }>(
    '/v0/organizations/:organization/usage',
    { schema: { params: pathParams('organization') } },
    async (request) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'manage');
      const end = Date.now();
      const start = end - USAGE_WINDOW_MS;
      return {
        organization: organization.uuid,
        kind: 'self_hosted_free',
        plan: null,
        license: null,
        start_time: toDateTime(start),
        end_time: toDateTime(end),
        metrics: await countMetrics(db, organization.uuid, start, end),
        active_series: null,
        runner_minutes: 0,
      };
    },
  );
}
