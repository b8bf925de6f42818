import type { ErrorFormatter } from '@atrium/core';
import { aiidaJson } from '../wire/json.js';

const NOT_FOUND = 'The requested URL is not found on the server.';

/** AiiDA's error body is `{"message": ...}`; unknown routes get its fixed not-found text. */
export const formatProvenanceError: ErrorFormatter = (problem) => ({
  statusCode: problem.status,
  body: aiidaJson({ message: problem.code === 'not_found' ? NOT_FOUND : problem.message }),
});
