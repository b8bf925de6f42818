import { HttpError } from '@atrium/core';

/**
 * Request bodies nesting deeper than this are refused: JSON schemas and tool arguments nest a few levels,
 * while serialising a value thousands of levels deep overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeper(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeper((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

/** Refuses (400, naming the top-level field) a body whose objects and arrays nest more than `MAX_JSON_DEPTH` levels. */
export function checkJsonDepth(body: object): void {
  for (const field in body) {
    if (nestsDeeper((body as Record<string, unknown>)[field], MAX_JSON_DEPTH - 1)) {
      throw new HttpError(
        400,
        'invalid_request',
        `${field}: JSON nested more than ${MAX_JSON_DEPTH} levels deep is not accepted`,
        field,
      );
    }
  }
}
