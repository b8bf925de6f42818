import { randomUUID } from 'node:crypto';
import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { acceptInvite } from '../auth/accounts.js';
import { mintInvite } from '../auth/invites.js';
import { ORGANIZATION_ROLES, type OrganizationRole } from '../auth/permissions.js';
import { invitationMessage } from '../mail/invitation.js';
import {
  listPendingInvitations,
  type PendingInvitation,
  recordInvitation,
  revokeInvitation,
} from '../storage/invitations.js';
import { organizationRole } from '../storage/organizations.js';
import { findUserByEmail } from '../storage/users.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { toDateTime } from '../wire/time.js';
import { organizationFor } from './access.js';
import { requireUser } from './auth.js';
import { invitationFor, signerOf } from './auth-session.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint, notFound } from './problems.js';
import { emailField, listQuery, nullable, pathParams, userNameField } from './schemas.js';

const newMember = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: { email: emailField, name: nullable(userNameField), role: { type: 'string', enum: ORGANIZATION_ROLES } },
};
const acceptBody = {
  type: 'object',
  additionalProperties: false,
  required: ['invite'],
  properties: { invite: { type: 'string', minLength: 1, maxLength: 4096 } },
};

type OrgParams = { organization: string };

const jsonInvitation = (row: PendingInvitation) => ({
  uuid: row.uuid,
  organization: row.organization_uuid,
  email: row.email,
  role: row.role,
  inviter: { uuid: row.inviter_uuid, name: row.inviter_name, slug: row.inviter_slug },
  created: toDateTime(row.created),
  expiration: toDateTime(row.expires),
});

/**
 * Invitations to an organisation. `POST …/members` records one and mails its JWT (kept in the outbox without a mail
 * server); `POST /v0/auth/accept` makes the signed-in user whose email it names a member with the role it offers.
 * An invitation works once, until `auth.inviteTtlSeconds` passes, and no longer once revoked, replaced by a newer
 * one to the same address, or that address's membership changed. Those who may invite list the pending ones
 * (`GET …/invitations`) and revoke one (`DELETE …/invitations/{uuid}`).
 */
export function registerInvitationRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;
  const { inviteTtlSeconds } = context.config.auth;

  app.post<{ Params: OrgParams; Body: { email: string; name?: string | null; role: OrganizationRole } }>(
    '/v0/organizations/:organization/members',
    { schema: { params: pathParams('organization'), body: newMember }, config: { status: 202 } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'create_role');
      const { email, role } = request.body;
      const invitee = await findUserByEmail(db, email);
      if (invitee && (await organizationRole(db, organization.uuid, invitee.uuid))) {
        throw new HttpError(409, 'conflict', 'This user is already a member of the organization.');
      }
      const nowSeconds = Math.floor(Date.now() / 1000);
      const expires = (nowSeconds + inviteTtlSeconds) * 1000;
      const uuid = randomUUID();
      await db.transaction().execute((trx) =>
        recordInvitation(trx, {
          uuid,
          organization_uuid: organization.uuid,
          email,
          role,
          inviter_uuid: user.uuid,
          created: nowSeconds * 1000,
          expires,
        }),
      );
      const token = mintInvite(
        { uuid, email, organization: organization.uuid, role },
        signerOf(context),
        nowSeconds,
        inviteTtlSeconds,
      );
      const message = invitationMessage({
        email,
        name: invitee?.name ?? request.body.name ?? undefined,
        inviter: user,
        organization: organization.name,
        role,
        token,
        consoleUrl: context.consoleUrl(),
        hasAccount: invitee !== undefined,
        expires,
      });
      await context.mail.send(message);
      return reply.code(202).send({ email });
    },
  );

  app.get<{ Params: OrgParams; Querystring: PaginationQuery }>(
    '/v0/organizations/:organization/invitations',
    { schema: { params: pathParams('organization'), querystring: listQuery(['created']) } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'create_role');
      const listed = await listPendingInvitations(db, organization.uuid, Date.now(), pageOf(request.query));
      return sendList(reply, listed.rows.map(jsonInvitation), listed.total);
    },
  );

  app.delete<{ Params: OrgParams & { invitation: string } }>(
    '/v0/organizations/:organization/invitations/:invitation',
    { schema: { params: pathParams('organization', 'invitation') } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const organization = await organizationFor(context, user, request.params.organization, 'create_role');
      if (!(await revokeInvitation(db, organization.uuid, request.params.invitation))) {
        throw notFound('Invitation', request.params.invitation);
      }
      return reply.code(204).send();
    },
  );

  app.post<{ Body: { invite: string } }>(
    '/v0/auth/accept',
    { schema: { body: acceptBody }, config: { status: 202 } },
    async (request, reply) => {
      const user = await requireUser(context, request);
      const invite = invitationFor(context, request.body.invite, user.email, Date.now());
      if (!(await conflictOnConstraint(acceptInvite(db, user, invite), 'Member'))) {
        throw new HttpError(409, 'conflict', 'You are already a member of this organization.');
      }
      return reply.code(202).send({ email: user.email });
    },
  );
}
