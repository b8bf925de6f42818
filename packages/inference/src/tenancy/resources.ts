import type { Kysely } from 'kysely';
import type { Account } from '../storage/accounts.js';
import { findProject, type Role, roleIn } from '../storage/projects.js';
import {
  addCredits,
  convertNodeHours,
  insertResource,
  type ResourceLimits,
  resourceOfProject,
  setResourceLimits,
} from '../storage/resources.js';
import type { InferenceDatabase } from '../storage/schema.js';
import { insertTopUp } from '../storage/top-ups.js';
import { conflict, invalid, notFound, refused } from './errors.js';
import { toMicro } from './pricing.js';

/** The portal's path (a): category and offering of the inference service. */
export const PORTAL_CATEGORY = 'Inference Service';
export const PORTAL_OFFERING = 'Inference-api-u';
export const SERVICE_DESK_SERVICE = 'Inference API';

const ASK_PI = "Only the project's principal investigator (PI) or deputy can do this; please ask them.";

export const managesResources = (role: Role | undefined, account: Account): boolean =>
  account.is_admin === 1 || role === 'pi' || role === 'deputy';

export function checkNodeHours(nodeHours: number): void {
  if (!Number.isFinite(nodeHours) || nodeHours <= 0)
    throw invalid('node hours must be a positive number', 'node_hours');
}

export async function projectManagedBy(db: Kysely<InferenceDatabase>, projectId: string, account: Account) {
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

/**
 * Converts node hours of the project's allocation into credits at the rate in force, on its resource (created
 * if it has none yet). Run it inside a transaction.
 */
export async function creditProject(
  trx: Kysely<InferenceDatabase>,
  projectId: string,
  cluster: string,
  nodeHours: number,
  now: number,
) {
  checkNodeHours(nodeHours);
  const resource = (await resourceOfProject(trx, projectId)) ?? (await insertResource(trx, projectId, now));
  const credits = await convertNodeHours(trx, resource.id, projectId, cluster, nodeHours, now);
  return { resourceId: resource.id, credits };
}

/**
 * An operator adds credits directly (a top-up outside the node-hour conversion), recorded with who and when;
 * `operator` null: the CLI.
 */
export async function topUpCredits(
  db: Kysely<InferenceDatabase>,
  operator: Account | null,
  projectId: string,
  credits: number,
  now = Date.now(),
) {
  if (operator && operator.is_admin !== 1) throw refused('only operators top up credits directly');
  if (!Number.isFinite(credits) || credits <= 0) throw invalid('credits must be a positive number', 'credits');
  const resource = await resourceOfProject(db, projectId);
  if (!resource) throw notFound('inference resource');
  const micro = toMicro(credits);
  await db.transaction().execute(async (trx) => {
    await addCredits(trx, resource.id, micro);
    await insertTopUp(trx, resource.id, micro, operator?.id ?? null, now);
  });
}

const LIMIT_NAMES: Record<keyof ResourceLimits, string> = {
  requestsPerMinute: 'requests per minute',
  tokensPerMinute: 'tokens per minute',
  concurrentRequests: 'concurrent requests',
};

/** Sets the resource-wide limits of a project's resource (null: unlimited); `operator` null: the CLI. */
export async function setLimitsOfProject(
  db: Kysely<InferenceDatabase>,
  operator: Account | null,
  projectId: string,
  limits: ResourceLimits,
) {
  if (operator && operator.is_admin !== 1) throw refused('only operators set resource limits');
  for (const [name, value] of Object.entries(limits) as Array<[keyof ResourceLimits, number | null]>)
    if (value !== null && !(Number.isSafeInteger(value) && value > 0))
      throw invalid(`${LIMIT_NAMES[name]} must be a positive whole number`, name);
  const resource = await resourceOfProject(db, projectId);
  if (!resource) throw notFound('inference resource');
  await setResourceLimits(db, resource.id, limits);
}
