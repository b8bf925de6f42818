import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { mintInvite, readInvite } from '../auth/invites.js';
import { ORGANIZATION_ROLES, type OrganizationRole } from '../auth/permissions.js';
import { invitationMessage } from '../mail/invitation.js';
import {
  addMember,
  countLeaders,
  findMember,
  listMembers,
  lockOrganization,
  type Member,
  removeMember,
  updateMemberRole,
} from '../storage/members.js';
import { findOrganization, organizationRole } from '../storage/organizations.js';
import type { Db, Organization } from '../storage/types.js';
import { findUserByEmail } from '../storage/users.js';
import { jsonMember } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { parseResourceId } from '../wire/slug.js';
import { organizationFor } from './access.js';
import { requireUser } from './auth.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint, notFound } from './problems.js';
import { emailField, listQuery, nullable, pathParams, userNameField } from './schemas.js';

const role = { type: 'string', enum: ORGANIZATION_ROLES };
const newMember = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: { email: emailField, name: nullable(userNameField), role },
};
const memberPatch = { type: 'object', additionalProperties: false, properties: { role: nullable(role) } };
const acceptBody = {
  type: 'object',
  additionalProperties: false,
  required: ['invite'],
  properties: { invite: { type: 'string', minLength: 1, maxLength: 4096 } },
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
 * Organisation members (`/v0/organizations/{organization}/members`) and invitations. An invitation is a
 * signed JWT mailed to the invitee (or kept in the outbox without a mail server); `POST /v0/auth/accept` makes the signed-in user
 * whose email it names a member with the role it offers. Every organisation keeps a leader.
 */
export function registerMemberRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;
  const signer = { secret: context.jwtSecret, issuer: context.config.security.issuer };
  const nowSeconds = () => Math.floor(Date.now() / 1000);

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

  app.post<{ Params: OrgParams; Body: { email: string; name?: string | null; role: OrganizationRole } }>(
    '/v0/organizations/:organization/members',
    { schema: { params: pathParams('organization'), body: newMember }, config: { status: 202 } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'create_role');
      const { email, role: offered } = request.body;
      const invitee = await findUserByEmail(db, email);
      if (invitee && (await organizationRole(db, organization.uuid, invitee.uuid))) {
        throw new HttpError(409, 'conflict', 'This user is already a member of the organization.');
      }
      const token = mintInvite({ email, organization: organization.uuid, role: offered }, signer, nowSeconds());
      const message = invitationMessage({
        email,
        name: invitee?.name ?? request.body.name ?? undefined,
        inviter: user,
        organization: organization.name,
        role: offered,
        token,
        consoleUrl: context.config.consoleUrl,
      });
      await context.mail.send(message);
      return reply.code(202).send({ email });
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
      });
      return reply.code(204).send();
    },
  );

  app.post<{ Body: { invite: string } }>(
    '/v0/auth/accept',
    { schema: { body: acceptBody }, config: { status: 202 } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const check = readInvite(request.body.invite, signer, nowSeconds());
      if (!check.ok) throw new HttpError(400, 'bad_request', `Failed to validate the invitation: ${check.reason}.`);
      const { invite } = check;
      if (invite.email.toLowerCase() !== user.email.toLowerCase()) {
        throw new HttpError(403, 'forbidden', 'This invitation was sent to another email address.');
      }
      const organization = await findOrganization(db, { column: 'uuid', value: invite.organization });
      if (!organization) throw notFound('Organization', invite.organization);
      if (await organizationRole(db, organization.uuid, user.uuid)) {
        throw new HttpError(409, 'conflict', 'You are already a member of this organization.');
      }
      await conflictOnConstraint(addMember(db, organization.uuid, user.uuid, invite.role), 'Member');
      return reply.code(202).send({ email: user.email });
    },
  );
}
