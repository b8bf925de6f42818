import type { Kysely, Selectable } from 'kysely';
import type { InferenceDatabase, ServiceRequestTable } from './schema.js';

export type ServiceRequest = Selectable<ServiceRequestTable>;

export interface NewServiceRequest {
  projectId: string;
  requestedBy: string;
  service: string;
  text: string;
  nodeHours: number;
  cluster: string;
}

export const insertServiceRequest = (db: Kysely<InferenceDatabase>, input: NewServiceRequest, now: number) =>
  db
    .insertInto('service_request')
    .values({
      project_id: input.projectId,
      requested_by: input.requestedBy,
      service: input.service,
      text: input.text,
      node_hours: input.nodeHours,
      cluster: input.cluster,
      status: 'open',
      decided_by: null,
      decided_at: null,
      created: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export const findServiceRequest = (db: Kysely<InferenceDatabase>, id: number) =>
  db.selectFrom('service_request').selectAll().where('id', '=', id).executeTakeFirst();

/** Requests (optionally of one status) with their project's name, oldest first: the operator's queue. */
export const serviceRequests = (db: Kysely<InferenceDatabase>, status?: ServiceRequest['status']) => {
  let query = db
    .selectFrom('service_request')
    .innerJoin('project', 'project.id', 'service_request.project_id')
    .selectAll('service_request')
    .select('project.name as project_name');
  if (status) query = query.where('service_request.status', '=', status);
  return query.orderBy('service_request.id').execute();
};

/** Marks an open request decided; false if it was not open any more (decided concurrently). */
export async function decideServiceRequest(
  db: Kysely<InferenceDatabase>,
  id: number,
  status: 'approved' | 'rejected',
  operatorId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('service_request')
    .set({ status, decided_by: operatorId, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Node hours a project asks for on a cluster in its open requests. */
export async function openNodeHours(db: Kysely<InferenceDatabase>, projectId: string, cluster: string) {
  const row = await db
    .selectFrom('service_request')
    .select((eb) => eb.fn.sum<number>('node_hours').as('hours'))
    .where('project_id', '=', projectId)
    .where('cluster', '=', cluster)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(row?.hours ?? 0);
}

/** A project's requests, newest first: what its PI and deputy see. */
export const serviceRequestsOfProjects = (db: Kysely<InferenceDatabase>, projectIds: readonly string[]) =>
  projectIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('service_request')
        .selectAll()
        .where('project_id', 'in', projectIds)
        .orderBy('id', 'desc')
        .execute();
