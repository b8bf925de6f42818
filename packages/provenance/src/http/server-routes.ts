import type { FastifyInstance } from 'fastify';
import { aiidaJson } from '../wire/json.js';
import { requestFields } from './envelope.js';

export const API_PREFIX = '/api/v4';
export const API_VERSION = '4.1.0';

export function registerServerRoutes(app: FastifyInstance, aiidaVersion: string): void {
  const [major, minor, revision] = API_VERSION.split('.');
  const info = {
    API_major_version: major,
    API_minor_version: minor,
    API_prefix: API_PREFIX,
    API_revision_version: revision,
    AiiDA_version: aiidaVersion,
  };
  app.get(`${API_PREFIX}/server/`, (request, reply) => {
    reply
      .header('x-total-count', '1')
      .type('application/json')
      .send(aiidaJson({ data: info, ...requestFields(request), resource_type: 'Info' }));
  });
}
