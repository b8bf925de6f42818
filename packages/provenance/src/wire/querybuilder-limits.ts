import { nestsDeeperThan } from '@atrium/core';
import { validationError } from './errors.js';

/**
 * Bounds of a QueryBuilder request, far above what AiiDA clients send. Beyond them a query would
 * overflow the parser's stack, SQLite's 64-table join or 32,766 variables, or only burn time.
 */
export const QB_LIMITS = {
  /** Path entries: each join adds two tables (link and entity), SQLite joins at most 64. */
  pathEntries: 32,
  /** Nesting of `and`/`or` lists. */
  filterDepth: 32,
  /**
   * Filter conditions, entries of `and`/`or` lists, values of `in` lists, projections and order_by
   * terms together (a JSON comparison binds up to 5 SQL variables; SQLite takes 32,766).
   */
  terms: 5000,
  /** Arrays and objects in the body, checked before parsing (AiiDA's own dictionaries nest a few levels). */
  bodyNesting: 256,
  /** `limit` and `offset`: integers a double holds exactly. */
  integer: Number.MAX_SAFE_INTEGER,
} as const;

export function checkBodyNesting(text: string): void {
  if (nestsDeeperThan(text, QB_LIMITS.bodyNesting)) {
    throw validationError(
      `QueryBuilder: the body nests lists and dictionaries deeper than ${QB_LIMITS.bodyNesting} levels`,
    );
  }
}

export function checkPathLength(length: number): void {
  if (length > QB_LIMITS.pathEntries) {
    throw validationError(`QueryBuilder: the path has ${length} entries; at most ${QB_LIMITS.pathEntries} are served`);
  }
}

export function checkFilterDepth(depth: number, tag: string): void {
  if (depth > QB_LIMITS.filterDepth) {
    throw validationError(
      `QueryBuilder: the filters of tag ${tag} nest 'and'/'or' deeper than ${QB_LIMITS.filterDepth} levels`,
    );
  }
}

export function checkInteger(value: number, what: string): void {
  if (value > QB_LIMITS.integer) throw validationError(`${what} cannot be bigger than ${QB_LIMITS.integer}`);
}

/** Counts terms while the request is parsed, so that a huge list is refused before it is walked. */
export class TermBudget {
  private left: number = QB_LIMITS.terms;

  spend(terms: number): void {
    this.left -= terms;
    if (this.left < 0) {
      throw validationError(
        `QueryBuilder: more than ${QB_LIMITS.terms} filter conditions, list values, projections and order_by terms`,
      );
    }
  }
}
