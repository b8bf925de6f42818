import { HttpError } from '@atrium/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Source } from '../source.js';
import { findByUuidPrefix, type Row } from '../storage/aiida/entities.js';
import { inputError, URL_NOT_FOUND } from '../wire/errors.js';
import { parseQueryString, QueryStringError, TimeFormatError, unquote } from '../wire/query-string.js';
import { interpretQuery, type RequestParams } from '../wire/request-params.js';
import type { ResourceDefinition } from '../wire/resources.js';
import { envelope, rawParts, sendJson } from './respond.js';

/** What a route handler works with: the request, the source it addresses and the parsed query string. */
export interface ApiCall {
  request: FastifyRequest;
  reply: FastifyReply;
  source: Source;
  params: Record<string, string | undefined>;
}

export type Handler = (call: ApiCall) => Promise<unknown>;

/** Parses and interprets the query string, mapping grammar failures to the reference's 404s. */
export function queryParams(call: ApiCall): RequestParams {
  try {
    return interpretQuery(parseQueryString(unquote(rawParts(call.request).query)));
  } catch (error) {
    if (error instanceof QueryStringError || error instanceof TimeFormatError) throw inputError(error.message);
    throw error;
  }
}

const UUID_TEMPLATE = 'd55082b6-76dc-426b-af89-0e08b59524d2';

/** `parse_path`: a segment is an id iff completing it with the template yields a valid uuid. */
export function isUuidLike(segment: string): boolean {
  if (segment.length > UUID_TEMPLATE.length) return false;
  return /^[0-9a-fA-F]{32}$/.test((segment + UUID_TEMPLATE.slice(segment.length)).replace(/-/g, ''));
}

/** `<int:page>` of Flask: a non-number does not match the route at all. */
export function pageNumber(call: ApiCall): number | undefined {
  const { page } = call.params;
  if (page === undefined) return call.request.routeOptions.url?.endsWith('/page') ? 1 : undefined;
  if (!/^\d+$/.test(page)) throw new HttpError(404, 'not_found', URL_NOT_FOUND);
  return Number(page);
}

/** The id segment of the path, checked to look like a uuid (prefix). */
export function idSegment(call: ApiCall): string {
  const id = call.params.id ?? '';
  if (!isUuidLike(id)) throw inputError(URL_NOT_FOUND);
  return id;
}

/** Resolves a uuid prefix to exactly one row, with the reference's not-found and ambiguity messages. */
export async function resolveUuid(
  call: ApiCall,
  resource: ResourceDefinition,
  id: string,
  columns?: readonly string[],
): Promise<Row> {
  const rows = await findByUuidPrefix(call.source.store, resource, id, columns);
  if (rows.length > 1) throw inputError('More than one node found. Provide longer starting pattern for id.');
  const row = rows[0];
  if (!row) {
    throw inputError(
      `either no object's id starts with '${id}' or the corresponding object is not of type aiida.orm.${resource.ormType}`,
    );
  }
  return row;
}

export function sendEnvelope(
  call: ApiCall,
  resourceType: string,
  data: unknown,
  id: string | number | null,
  options: { totalCount: number; link?: string },
) {
  return sendJson(call.reply, envelope(call.request, resourceType, data, id), options);
}
