import type { Kysely } from 'kysely';
import type { ApiKeyRow } from './api-keys.js';
import { projectsOf } from './projects.js';
import type { InferenceResource } from './resources.js';
import type { InferenceDatabase } from './schema.js';
import { type ServiceRequest, serviceRequestsOfProjects } from './service-requests.js';
import { usageTotalsOfKeys } from './usage.js';

export type DashboardProject = Awaited<ReturnType<typeof projectsOf>>[number] & {
  grants: Array<{ starts: number; ends: number }>;
  allocations: Array<{ cluster: string; node_hours: number }>;
  resource: InferenceResource | undefined;
  keys: Array<ApiKeyRow & { requests: number; tokens: number; credits: number; created_by_email: string | null }>;
  /** The project's service-desk requests, newest first (shown to its PI and deputy). */
  requests: ServiceRequest[];
};

/** Everything the account page shows, in a fixed number of queries whatever the number of projects and keys. */
export async function accountDashboard(
  db: Kysely<InferenceDatabase>,
  accountId: string,
  usageSince: number,
): Promise<DashboardProject[]> {
  const projects = await projectsOf(db, accountId);
  if (projects.length === 0) return [];
  const ids = projects.map((p) => p.id);
  const [grants, allocations, resources, requests] = await Promise.all([
    db.selectFrom('project_grant').selectAll().where('project_id', 'in', ids).orderBy('starts').execute(),
    db.selectFrom('allocation').selectAll().where('project_id', 'in', ids).orderBy('cluster').execute(),
    db.selectFrom('inference_resource').selectAll().where('project_id', 'in', ids).execute(),
    serviceRequestsOfProjects(
      db,
      projects.filter((p) => p.role !== 'member').map((p) => p.id),
    ),
  ]);
  const keys =
    resources.length === 0
      ? []
      : await db
          .selectFrom('api_key')
          .leftJoin('account', 'account.id', 'api_key.created_by')
          .selectAll('api_key')
          .select('account.email as created_by_email')
          .where(
            'api_key.resource_id',
            'in',
            resources.map((r) => r.id),
          )
          .orderBy('api_key.created')
          .execute();
  const totals = new Map(
    (
      await usageTotalsOfKeys(
        db,
        keys.map((k) => k.id),
        usageSince,
      )
    ).map((t) => [t.key_id, t]),
  );
  return projects.map((project) => ({
    ...project,
    grants: grants.filter((g) => g.project_id === project.id),
    allocations: allocations.filter((a) => a.project_id === project.id),
    resource: resources.find((r) => r.project_id === project.id),
    requests: requests.filter((r) => r.project_id === project.id),
    keys: keys
      .filter((k) => k.project_id === project.id)
      .map((k) => {
        const t = totals.get(k.id);
        return {
          ...k,
          requests: t?.requests ?? 0,
          tokens: (t?.prompt_tokens ?? 0) + (t?.completion_tokens ?? 0),
          credits: t?.credits ?? 0,
        };
      }),
  }));
}
