import type { FastifyInstance } from 'fastify';
import { flattenStatistic } from '../wire/deprecated-names.js';
import { badRequest } from './problems.js';

const THRESHOLD_ROUTES = new Set(['/v0/projects/:project/thresholds', '/v0/projects/:project/thresholds/:threshold']);

/**
 * Threshold bodies in the shape before Bencher renamed `statistic` to `model` (the model under a `statistic`
 * object) are read in the current shape, before validation. BMF's `lower_bound`/`upper_bound` are renamed where
 * reports are parsed (adapters/json.ts).
 */
export function acceptDeprecatedInputs(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (!THRESHOLD_ROUTES.has(request.routeOptions.url ?? '')) return;
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
    const flattened = flattenStatistic(body as Record<string, unknown>);
    if (!flattened.ok) throw badRequest(`'${flattened.field}' disagrees with the same field outside 'statistic'`);
    request.body = flattened.value;
  });
}
