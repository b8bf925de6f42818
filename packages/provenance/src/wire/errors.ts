import { HttpError } from '@atrium/core';

/**
 * The reference's exception classes and the status each maps to: RestInputValidationError → 404,
 * RestValidationError → 400, RestFeatureNotAvailable → 501, anything else → 500 with the message.
 */
export const inputError = (message: string) => new HttpError(404, 'input_error', message);
export const validationError = (message: string) => new HttpError(400, 'validation_error', message);
export const notAvailable = (message: string) => new HttpError(501, 'not_available', message);
export const internalError = (message: string) => new HttpError(500, 'aiida_error', message);

export const URL_NOT_FOUND = 'The requested URL is not found on the server.';
