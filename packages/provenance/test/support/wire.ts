import { parseQueryString } from '../../src/wire/query-string.js';
import { interpretQuery, type RequestParams } from '../../src/wire/request-params.js';

/** A query string as the routes see it: parsed, then split into reserved keys and filters. */
export const params = (text: string): RequestParams => interpretQuery(parseQueryString(text));

/** The status and message `fn` throws with, or undefined when it does not throw. */
export function failure(fn: () => unknown): { status: number; message: string } | undefined {
  try {
    fn();
  } catch (error) {
    const e = error as { status: number; message: string };
    return { status: e.status, message: e.message };
  }
  return undefined;
}
