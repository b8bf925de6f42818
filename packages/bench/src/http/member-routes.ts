import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { ORGANIZATION_ROLES, type OrganizationRole } from '../auth/permissions.js';
import { revokeInvitationsTo } from '../storage/invitations.js';
import {
  countLeaders,
  findMember,
  listMembers,
  lockOrganization,
  type Member,
  removeMember,
  updateMemberRole,
} from '../storage/members.js';
import type { Db, Organization } from '../storage/types.js';
import { jsonMember } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { parseResourceId } from '../wire/slug.js';
import { organizationFor } from './access.js';
import { requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { notFound } from './problems.js';
import { listQuery, nullable, pathParams } from './schemas.js';

const memberPatch = {
  type: 'object',
  additionalProperties: false,
  properties: { role: nullable({ type: 'string', enum: ORGANIZATION_ROLES }) },
};

type OrgParams = { organization: string };
type MemberParams = OrgParams & { user: string };

const lastLeader = () =>
  new HttpError(409, 'conflict', 'An organization keeps at least one leader: promote another member first.');

async function memberOf(db: Db, organization: Organization, user: string): Promise<Member> {
  const member = await findMember(db, organization.uuid, parseResourceId(user));
  if (!member) throw notFound('Member', user);
  return member;
}

/**
 * Organisation members (`/v0/organizations/{organization}/members`; invitations are in `invitation-routes.ts`).
 * Every organisation keeps a leader. A member's role change or removal voids pending invitations to their address,
 * so that none of them can restore what was just decided.
 */
export function registerMemberRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.get<{ Params: OrgParams; Querystring: PaginationQuery & { name?: string; search?: string } }>(
    '/v0/organizations/:organization/members',
    { schema: { params: pathParams('organization'), querystring: listQuery(['name']) } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'view_role');
      const { name, search } = request.query;
      const listed = await listMembers(db, organization.uuid, { name, search }, pageOf(request.query));
      return sendList(reply, listed.rows.map(jsonMember), listed.total);
    },
  );

  app.get<{ Params: MemberParams }>(
    '/v0/organizations/:organization/members/:user',
    { schema: { params: pathParams('organization', 'user') } },
    async (request) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'view_role');
      return jsonMember(await memberOf(db, organization, request.params.user));
    },
  );

  app.patch<{ Params: MemberParams; Body: { role?: OrganizationRole | null } }>(
    '/v0/organizations/:organization/members/:user',
    { schema: { params: pathParams('organization', 'user'), body: memberPatch } },
    async (request) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'edit_role');
      const wanted = request.body.role ?? undefined;
      return db.transaction().execute(async (trx) => {
        await lockOrganization(trx, organization.uuid);
        const member = await memberOf(trx, organization, request.params.user);
        if (wanted === undefined || wanted === member.role) return jsonMember(member);
        if (member.role === 'leader' && (await countLeaders(trx, organization.uuid)) === 1) throw lastLeader();
        const now = Date.now();
        await updateMemberRole(trx, organization.uuid, member.uuid, wanted, now);
        await revokeInvitationsTo(trx, organization.uuid, member.email);
        return jsonMember({ ...member, role: wanted, modified: now });
      });
    },
  );

  app.delete<{ Params: MemberParams }>(
    '/v0/organizations/:organization/members/:user',
    { schema: { params: pathParams('organization', 'user') } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const target = parseResourceId(request.params.user);
      const leaving = target.value === (target.column === 'uuid' ? user.uuid : user.slug);
      const organization = await organizationFor(
        context,
        user,
        request.params.organization,
        leaving ? 'view' : 'delete_role',
      );
      await db.transaction().execute(async (trx) => {
        await lockOrganization(trx, organization.uuid);
        const member = await memberOf(trx, organization, request.params.user);
        if (member.role === 'leader' && (await countLeaders(trx, organization.uuid)) === 1) throw lastLeader();
        await removeMember(trx, organization.uuid, member.uuid);
        await revokeInvitationsTo(trx, organization.uuid, member.email);
      });
      return reply.code(204).send();
    },
  );
}
