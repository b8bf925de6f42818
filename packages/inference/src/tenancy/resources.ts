import type { Kysely } from 'kysely';
import type { Account } from '../storage/accounts.js';
import { findProject, type Role, roleIn } from '../storage/projects.js';
import { addCredits, convertNodeHours, insertResource, resourceOfProject } from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import {
  decideServiceRequest,
  findServiceRequest,
  insertServiceRequest,
  type NewServiceRequest,
} from '../storage/service-requests.js';
import { conflict, invalid, notFound, refused } from './errors.js';
import { toMicro } from './pricing.js';

/** The portal's path (a): category and offering of the inference service. */
export const PORTAL_CATEGORY = 'Inference Service';
export const PORTAL_OFFERING = 'Inference-api-u';
export const SERVICE_DESK_SERVICE = 'Inference API';

const ASK_PI = "Only the project's principal investigator (PI) or deputy can do this; please ask them.";

export const managesResources = (role: Role | undefined, account: Account): boolean =>
  account.is_admin === 1 || role === 'pi' || role === 'deputy';

function checkNodeHours(nodeHours: number): void {
  if (!Number.isFinite(nodeHours) || nodeHours <= 0)
    throw invalid('node hours must be a positive number', 'node_hours');
}

async function projectManagedBy(db: Kysely<InferenceDatabase>, projectId: string, account: Account) {
  const project = await findProject(db, projectId);
  if (!project) throw notFound('project');
  if (!managesResources(await roleIn(db, projectId, account.id), account)) throw refused(ASK_PI);
  return project;
}

export interface PortalOrder {
  projectId: string;
  category: string;
  offering: string;
  nodeHours: number;
  cluster: string;
}

/**
 * Path (a): a PI or deputy of a project of the designated organisation adds the resource in the portal;
 * the node hours come off the allocation and become credits at the rate in force, at once.
 */
export async function createResourceInPortal(
  db: Kysely<InferenceDatabase>,
  account: Account,
  order: PortalOrder,
  designatedOrganisation: string,
  now = Date.now(),
) {
  if (order.category !== PORTAL_CATEGORY || order.offering !== PORTAL_OFFERING)
    throw invalid(`choose category '${PORTAL_CATEGORY}' and offering '${PORTAL_OFFERING}'`, 'offering');
  checkNodeHours(order.nodeHours);
  const project = await projectManagedBy(db, order.projectId, account);
  if (project.organisation !== designatedOrganisation)
    throw refused(`projects outside ${designatedOrganisation} request the inference resource through the service desk`);
  return db.transaction().execute(async (trx) => {
    if (await resourceOfProject(trx, project.id))
      throw conflict('resource_exists', 'the project already has an inference resource');
    const resource = await insertResource(trx, project.id, now);
    const credits = await convertNodeHours(trx, resource.id, project.id, order.cluster, order.nodeHours, now);
    return { ...resource, credits_total: credits };
  });
}

/** Path (b): a PI or deputy files a service-desk request (also how more credits are asked for later). */
export async function fileServiceRequest(
  db: Kysely<InferenceDatabase>,
  account: Account,
  input: Omit<NewServiceRequest, 'requestedBy'>,
  now = Date.now(),
) {
  checkNodeHours(input.nodeHours);
  if (input.text.trim() === '') throw invalid('the request text is empty', 'text');
  await projectManagedBy(db, input.projectId, account);
  return insertServiceRequest(db, { ...input, requestedBy: account.id }, now);
}

/**
 * An operator approves a request: the node hours come off the project's allocation and become credits at
 * the rate in force now, on the existing resource or a new one. All or nothing.
 */
export async function approveServiceRequest(
  db: Kysely<InferenceDatabase>,
  operator: Account,
  requestId: number,
  now = Date.now(),
) {
  if (operator.is_admin !== 1) throw refused('only operators decide service-desk requests');
  return db.transaction().execute(async (trx) => {
    const request = await findServiceRequest(trx, requestId);
    if (!request) throw notFound('service request');
    if (!(await decideServiceRequest(trx, requestId, 'approved', operator.id, now)))
      throw conflict('already_decided', `service request ${requestId} was already ${request.status}`);
    const resource =
      (await resourceOfProject(trx, request.project_id)) ?? (await insertResource(trx, request.project_id, now));
    const credits = await convertNodeHours(
      trx,
      resource.id,
      request.project_id,
      request.cluster,
      request.node_hours,
      now,
    );
    return { resourceId: resource.id, credits };
  });
}

export async function rejectServiceRequest(
  db: Kysely<InferenceDatabase>,
  operator: Account,
  requestId: number,
  now = Date.now(),
) {
  if (operator.is_admin !== 1) throw refused('only operators decide service-desk requests');
  const request = await findServiceRequest(db, requestId);
  if (!request) throw notFound('service request');
  if (!(await decideServiceRequest(db, requestId, 'rejected', operator.id, now)))
    throw conflict('already_decided', `service request ${requestId} was already ${request.status}`);
}

/** An operator adds credits directly (a top-up outside the node-hour conversion). */
export async function topUpCredits(
  db: Kysely<InferenceDatabase>,
  operator: Account,
  projectId: string,
  credits: number,
) {
  if (operator.is_admin !== 1) throw refused('only operators top up credits directly');
  if (!Number.isFinite(credits) || credits <= 0) throw invalid('credits must be a positive number', 'credits');
  const resource = await resourceOfProject(db, projectId);
  if (!resource) throw notFound('inference resource');
  await addCredits(db, resource.id, toMicro(credits));
}
