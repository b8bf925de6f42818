import type { ErrorFormatter } from '@atrium/core';
import { AVAILABLE_ENDPOINTS } from '../wire/endpoints.js';
import { URL_NOT_FOUND } from '../wire/errors.js';
import { aiidaJson } from '../wire/json.js';

/**
 * AiiDA's error body is `{"message": ...}`; a request no route matches (or a method a route does
 * not accept) gets the fixed not-found text plus the list of endpoints.
 */
export const formatProvenanceError: ErrorFormatter = (problem) => ({
  statusCode: problem.status,
  body: aiidaJson(
    problem.code === 'not_found'
      ? { available_endpoints: AVAILABLE_ENDPOINTS, message: URL_NOT_FOUND }
      : { message: problem.message },
  ),
});
