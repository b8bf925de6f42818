import { HttpError } from '@atrium/core';
import { describe, expect, it } from 'vitest';
import { parseQueryString, QueryStringError, unquote } from '../src/wire/query-string.js';
import { parseQueryBuilderBody } from '../src/wire/querybuilder.js';
import { interpretQuery } from '../src/wire/request-params.js';

const MIB = 1 << 20;
const DEADLINE_MS = 500;
const fill = (unit: string) => unit.repeat(Math.ceil(MIB / unit.length));

/**
 * Runs `parse` and returns the CPU milliseconds it took (immune to a busy machine, unlike wall time;
 * what a superlinear pattern costs shows either way). Refusing the input is fine, with the parser's
 * own errors; hanging or overflowing the stack is not.
 */
function timed(parse: () => unknown): number {
  const started = process.cpuUsage();
  try {
    parse();
  } catch (error) {
    if (!(error instanceof QueryStringError || error instanceof HttpError)) throw error;
  }
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

/** Issue 12 item 1: 1 MiB lines built from what each pattern could match in several ways. */
describe('the query-string parser on 1 MiB adversarial lines', () => {
  it.each([
    ['a key without operator', fill('a')],
    ['ampersands', fill('&')],
    ['equals signs', fill('=')],
    ['a long number', `id=${fill('1')}`],
    ['a long number then garbage', `id=${fill('1')}x`],
    ['a number with dots and no exponent digits', `id=${fill('1.')}e`],
    ['an unterminated quote', `label="${fill('x')}`],
    ['doubled quotes, unterminated', `label="${fill('""')}`],
    ['a long list', `id=in=${fill('1,')}`],
    ['a long list failing at its end', `id=${fill('1,')}"`],
    ['dates without end', `ctime>${fill('2019-01-01T')}`],
    ['signs', `orderby=${fill('-')}`],
    ['a long orderby list', `orderby=${fill('-id,')}id`],
    ['many fields', fill('id=1&')],
  ])('%s', (_, text) => {
    const ms = timed(() => interpretQuery(parseQueryString(text)));
    expect(ms).toBeLessThan(DEADLINE_MS);
  });

  it.each([
    ['percent escapes', fill('%ff')],
    ['lone percent signs', fill('%')],
    ['broken escapes', fill('%f%')],
  ])('unquote: %s', (_, text) => {
    expect(timed(() => parseQueryString(unquote(text)))).toBeLessThan(DEADLINE_MS);
  });
});

describe('the QueryBuilder body parser on 1 MiB adversarial bodies', () => {
  const body = (entry: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
    JSON.stringify({ path: [{ tag: 'n', ...entry }], project: { n: ['id'] }, ...rest });
  it.each([
    ['an entity_type without dots', body({ entity_type: fill('a') })],
    ['an entity_type of dots', body({ entity_type: fill('.') })],
    ['an entity_type of segments', body({ entity_type: fill('a.') })],
    ['an entity_type of bars', body({ entity_type: fill('|') })],
    ['a list of entity types', body({ entity_type: Array.from({ length: MIB / 8 }, () => 'data.') })],
    ['a long attribute path', body({}, { filters: { n: { [`attributes.${fill('a.')}b`]: 1 } } })],
    ['a long projection', body({}, { project: { n: [fill('a')] } })],
    ['many projections', body({}, { project: { n: Array.from({ length: MIB / 8 }, () => 'id') } })],
    ['a long in list', body({}, { filters: { n: { id: { in: Array.from({ length: MIB / 2 }, () => 1) } } } })],
    ['a long order_by', body({}, { order_by: { n: Array.from({ length: MIB / 8 }, () => 'id') } })],
    ['a long path', JSON.stringify({ path: Array.from({ length: MIB / 4 }, () => ({})), project: {} })],
    ['deep brackets', fill('[')],
    ['deep objects', `${fill('{"a":')}1`],
  ])('%s', (_, text) => {
    expect(timed(() => parseQueryBuilderBody(text))).toBeLessThan(DEADLINE_MS);
  });
});
