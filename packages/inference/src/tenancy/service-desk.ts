import { queueEmails } from '@atrium/core';
import type { Kysely } from 'kysely';
import { type Account, findAccount } from '../storage/accounts.js';
import { allocationsOf, hasActiveGrant } from '../storage/projects.js';
import { nodeHourRateAt } from '../storage/rates.js';
import type { InferenceDatabase } from '../storage/schema.js';
import {
  decideServiceRequest,
  findServiceRequest,
  insertServiceRequest,
  type NewServiceRequest,
  openNodeHours,
  type ServiceRequest,
} from '../storage/service-requests.js';
import type { Delivery } from './announcements.js';
import { conflict, invalid, notFound, refused } from './errors.js';
import { fromMicro } from './pricing.js';
import { checkNodeHours, creditProject, projectManagedBy } from './resources.js';

/**
 * Path (b): a PI or deputy files a service-desk request (also how more credits are asked for later). Refused
 * at once when an operator could not approve it: no active grant, no rate or allocation on the cluster, or
 * more node hours than the allocation has left besides the project's other open requests on that cluster.
 */
export async function fileServiceRequest(
  db: Kysely<InferenceDatabase>,
  account: Account,
  input: Omit<NewServiceRequest, 'requestedBy'>,
  now = Date.now(),
) {
  checkNodeHours(input.nodeHours);
  if (input.text.trim() === '') throw invalid('the request text is empty', 'text');
  await projectManagedBy(db, input.projectId, account);
  if (!(await hasActiveGrant(db, input.projectId, now)))
    throw refused('the project has no active grant; a request can be filed while a grant is active');
  const allocation = (await allocationsOf(db, input.projectId)).find((a) => a.cluster === input.cluster);
  if (!allocation) throw invalid(`the project has no allocation on cluster '${input.cluster}'`, 'cluster');
  if ((await nodeHourRateAt(db, input.cluster, now)) === undefined)
    throw invalid(`no node-hour rate is set for cluster '${input.cluster}' yet; ask the operators`, 'cluster');
  const pending = await openNodeHours(db, input.projectId, input.cluster);
  const left = allocation.node_hours - pending;
  if (input.nodeHours > left)
    throw invalid(
      `the project has ${left} node hours left on cluster '${input.cluster}'${pending > 0 ? ` besides ${pending} in open requests` : ''}; ask for at most that`,
      'node_hours',
    );
  return insertServiceRequest(db, { ...input, requestedBy: account.id }, now);
}

/** The email telling whoever filed a request how it was decided. */
async function queueDecisionMail(
  trx: Kysely<InferenceDatabase>,
  request: ServiceRequest,
  status: 'approved' | 'rejected',
  decision: string,
  now: number,
  delivery: Delivery,
) {
  const requester = await findAccount(trx, request.requested_by);
  if (!requester) return;
  await queueEmails<InferenceDatabase>(trx, [
    {
      recipient: requester.email,
      subject: `[Atrium inference] Service-desk request #${request.id} ${status}`,
      body: `Your service-desk request #${request.id} for ${request.node_hours} node hours on cluster ${request.cluster} was ${decision}.\n\nRequest: ${request.text}\n\nThe web UI shows your project's requests and their state.`,
      created: now,
      status: delivery === 'smtp' ? 'queued' : 'outbox',
      last_error: null,
      sent_at: null,
    },
  ]);
}

/**
 * An operator's decision on an open request: marks it decided, then runs `then` and queues the requester's
 * email, all in one transaction.
 */
const operatorDecision =
  (
    status: 'approved' | 'rejected',
    then: (
      request: ServiceRequest,
      trx: Kysely<InferenceDatabase>,
      now: number,
    ) => Promise<{ decision: string; credits: number }>,
  ) =>
  async (
    db: Kysely<InferenceDatabase>,
    operator: Account,
    requestId: number,
    now = Date.now(),
    delivery: Delivery = 'outbox',
  ) => {
    if (operator.is_admin !== 1) throw refused('only operators decide service-desk requests');
    return db.transaction().execute(async (trx) => {
      const request = await findServiceRequest(trx, requestId);
      if (!request) throw notFound('service request');
      if (!(await decideServiceRequest(trx, requestId, status, operator.id, now)))
        throw conflict('already_decided', `service request ${requestId} was already ${request.status}`);
      const { decision, credits } = await then(request, trx, now);
      await queueDecisionMail(trx, request, status, decision, now, delivery);
      return { id: requestId, status, credits };
    });
  };

/** An operator approves a request: its node hours become credits at the rate in force now. All or nothing. */
export const approveServiceRequest = operatorDecision('approved', async (request, trx, now) => {
  const { credits } = await creditProject(trx, request.project_id, request.cluster, request.node_hours, now);
  return {
    decision: `approved: ${fromMicro(credits)} credits were added to the project's inference resource`,
    credits,
  };
});

export const rejectServiceRequest = operatorDecision('rejected', async () => ({
  decision: 'rejected by the operators',
  credits: 0,
}));
