import { HttpError } from '@atrium/core';

/** A tenancy rule said no; the message says what to do instead. */
export const refused = (message: string) => new HttpError(403, 'forbidden', message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
export const invalid = (message: string, param?: string) => new HttpError(400, 'invalid_request', message, param);
export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);
