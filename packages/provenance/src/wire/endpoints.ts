/** The reference's 46 Flask rules (group, rule); only `/querybuilder/` also accepts POST. */
export const ENDPOINT_RULES: readonly [group: string, rule: string][] = [
  ['calcjobs', '/api/v4/calcjobs/<id>/input_files/'],
  ['calcjobs', '/api/v4/calcjobs/<id>/output_files/'],
  ['computers', '/api/v4/computers/'],
  ['computers', '/api/v4/computers/<id>/'],
  ['computers', '/api/v4/computers/page/'],
  ['computers', '/api/v4/computers/page/<int:page>/'],
  ['computers', '/api/v4/computers/projectable_properties/'],
  ['groups', '/api/v4/groups/'],
  ['groups', '/api/v4/groups/<id>/'],
  ['groups', '/api/v4/groups/page/'],
  ['groups', '/api/v4/groups/page/<int:page>/'],
  ['groups', '/api/v4/groups/projectable_properties/'],
  ['nodes', '/api/v4/nodes/'],
  ['nodes', '/api/v4/nodes/<id>/'],
  ['nodes', '/api/v4/nodes/<id>/contents/attributes/'],
  ['nodes', '/api/v4/nodes/<id>/contents/comments/'],
  ['nodes', '/api/v4/nodes/<id>/contents/derived_properties/'],
  ['nodes', '/api/v4/nodes/<id>/contents/extras/'],
  ['nodes', '/api/v4/nodes/<id>/download/'],
  ['nodes', '/api/v4/nodes/<id>/links/incoming/'],
  ['nodes', '/api/v4/nodes/<id>/links/incoming/page/'],
  ['nodes', '/api/v4/nodes/<id>/links/incoming/page/<int:page>/'],
  ['nodes', '/api/v4/nodes/<id>/links/outgoing/'],
  ['nodes', '/api/v4/nodes/<id>/links/outgoing/page/'],
  ['nodes', '/api/v4/nodes/<id>/links/outgoing/page/<int:page>/'],
  ['nodes', '/api/v4/nodes/<id>/links/tree/'],
  ['nodes', '/api/v4/nodes/<id>/repo/contents/'],
  ['nodes', '/api/v4/nodes/<id>/repo/list/'],
  ['nodes', '/api/v4/nodes/download_formats/'],
  ['nodes', '/api/v4/nodes/full_types/'],
  ['nodes', '/api/v4/nodes/full_types_count/'],
  ['nodes', '/api/v4/nodes/page/'],
  ['nodes', '/api/v4/nodes/page/<int:page>/'],
  ['nodes', '/api/v4/nodes/projectable_properties/'],
  ['nodes', '/api/v4/nodes/statistics/'],
  ['processes', '/api/v4/processes/<id>/report/'],
  ['processes', '/api/v4/processes/projectable_properties/'],
  ['querybuilder', '/api/v4/querybuilder/'],
  ['server', '/api/v4/'],
  ['server', '/api/v4/server/'],
  ['server', '/api/v4/server/endpoints/'],
  ['users', '/api/v4/users/'],
  ['users', '/api/v4/users/<id>/'],
  ['users', '/api/v4/users/page/'],
  ['users', '/api/v4/users/page/<int:page>/'],
  ['users', '/api/v4/users/projectable_properties/'],
];

/** `list_routes()`: `f'{endpoint:15s} {methods:20s} {rule}'`, sorted. */
export const AVAILABLE_ENDPOINTS: readonly string[] = ENDPOINT_RULES.map(([group, rule]) => {
  const methods = group === 'querybuilder' ? 'POST,GET,OPTIONS,HEAD' : 'GET,OPTIONS,HEAD';
  return `${group.padEnd(15)} ${methods.padEnd(20)} ${rule}`;
}).sort();

/** `/api/v4/nodes/<id>/page/<int:page>/` → `/api/v4/nodes/:id/page/:page` (Fastify ignores the trailing slash). */
export function fastifyPattern(rule: string): string {
  return rule.replace(/<(?:int:)?(\w+)>/g, ':$1').replace(/\/$/, '') || '/';
}
