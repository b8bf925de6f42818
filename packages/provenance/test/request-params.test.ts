import { describe, expect, it } from 'vitest';
import { linkHeader, pageWindow, validateRequest } from '../src/wire/pagination.js';
import { failure, params } from './support/wire.js';

describe('interpretQuery', () => {
  it('separates reserved keys from column filters', () => {
    const p = params(
      'limit=2&offset=1&orderby=-ctime,pk&pk=3&attributes=true&attributes_filter=a,b&full_type="data.%|"',
    );
    expect(p).toMatchObject({
      limit: 2,
      offset: 1,
      orderby: [
        { column: 'ctime', descending: true },
        { column: 'id', descending: false },
      ],
      filters: [{ column: 'id', op: '==', value: 3 }],
      attributes: true,
      attributesFilter: ['a', 'b'],
      fullType: 'data.%|',
      download: true,
    });
  });

  it('turns `=` on a date into the interval of its precision', () => {
    expect(params('ctime=2020-01-02').filters).toEqual([
      { column: 'ctime', op: '>=', value: new Date('2020-01-02T00:00:00Z') },
      { column: 'ctime', op: '<', value: new Date('2020-01-03T00:00:00Z') },
    ]);
    expect(params('ctime=2020-01-02T10:30').filters[1]?.value).toEqual(new Date('2020-01-02T10:31:00Z'));
    expect(params('ctime>2020-01-02').filters).toMatchObject([
      { column: 'ctime', op: '>', value: new Date('2020-01-02T00:00:00Z') },
    ]);
  });

  it.each([
    ['download=false', false],
    ['download=False', false],
    ['download=true', true],
    ['', true],
  ])('download flag %j → %s', (text, expected) => {
    expect(params(text).download).toBe(expected);
  });

  it('treats tree_in_limit (the documented name) as a column filter, as utils.build_translator_parameters does', () => {
    expect(params('tree_in_limit=3&out_limit=2')).toMatchObject({
      inLimit: undefined,
      outLimit: 2,
      filters: [{ column: 'tree_in_limit', op: '==', value: 3 }],
    });
  });

  it.each([
    ['limit=1&limit=2', 404, 'You cannot specify limit more than once'],
    ['orderby=id&orderby=label', 404, 'You cannot specify orderby more than once'],
    ['limit>2', 404, "only assignment operator '=' is permitted after 'limit'"],
    ['full_type=like="x"', 404, "only assignment operator '=' is permitted after 'full_type'"],
    ['attributes="yes"', 400, 'The attributes filter is false by default and can only be set to true.'],
    ['extras=False', 400, 'The extras filter is false by default and can only be set to true.'],
    ['ctime=2020-01-02T10:30:00+01:30', 400, 'The datetime resolution is not valid.'],
  ])('%j fails with %i %j', (text, status, message) => {
    expect(failure(() => params(text))).toEqual({ status, message });
  });
});

describe('validateRequest and pageWindow', () => {
  it.each([
    ['offset=2&limit=1&perpage=2', 2, 400, 'perpage key is incompatible with limit and offset'],
    ['offset=2&limit=1', 2, 400, 'requesting a specific page is incompatible with limit and offset'],
    ['perpage=2', undefined, 400, 'perpage key requires that a page is requested (i.e. the path must contain /page/)'],
  ])('%j (page %s) → %i %j', (text, page, status, message) => {
    expect(failure(() => validateRequest(params(text), page, false))).toEqual({ status, message });
  });

  it('refuses query strings on projectable_properties', () => {
    expect(failure(() => validateRequest(params('a=1'), undefined, true))).toEqual({
      status: 404,
      message: 'projectable_properties requests do not allow specifying a query string',
    });
    expect(failure(() => validateRequest(params(''), undefined, true))).toBeUndefined();
  });

  it.each([
    ['', undefined, 10, { limit: 400, offset: undefined }],
    ['limit=2&offset=3', undefined, 10, { limit: 2, offset: 3 }],
    ['perpage=3', 2, 10, { limit: 3, offset: 3, pages: { prev: 1, next: 3, first: 1, last: 4 } }],
    ['', 1, 0, { limit: 20, offset: 0, pages: { first: 1, last: 1 } }],
  ])('window of %j page %s total %i', (text, page, total, expected) => {
    expect(pageWindow(params(text), page, total)).toEqual(expected);
  });

  it.each([
    ['perpage=2', 4, 5, 404, 'Non existent page requested. The page range is [1 : 3]'],
    ['', 0, 5, 404, 'Non existent page requested. The page range is [1 : 1]'],
    ['limit=401', undefined, 5, 400, 'Limit and perpage cannot be bigger than 400'],
    ['perpage=401', 1, 5, 400, 'Limit and perpage cannot be bigger than 400'],
    ['perpage=0', 1, 5, 500, 'division by zero'],
    ['limit=-1', undefined, 5, 400, 'limit, offset and perpage cannot be negative'],
    ['offset=-3', undefined, 5, 400, 'limit, offset and perpage cannot be negative'],
    ['limit="a"', undefined, 5, 500, 'Limit value must be an integer'],
    ['offset=abc', undefined, 5, 500, 'Offset value must be an integer'],
  ])('%j page %s of %i rows → %i', (text, page, total, status, message) => {
    expect(failure(() => pageWindow(params(text), page, total))).toEqual({ status, message });
  });

  it('builds the Link header with the reference quirks', () => {
    expect(
      linkHeader('http://localhost/api/v4/nodes/page/2?perpage=3&orderby=id', { prev: 1, next: 3, first: 1, last: 4 }),
    ).toBe(
      '<http:/localhost/api/v4/nodes/page/1?perpage=3&orderby=id>; rel=prev, <http:/localhost/api/v4/nodes/page/3?perpage=3&orderby=id>; rel=next, <http:/localhost/api/v4/nodes/page/1?perpage=3&orderby=id>; rel=first, <http:/localhost/api/v4/nodes/page/4?perpage=3&orderby=id>; rel=last, ',
    );
    expect(linkHeader('http://localhost/api/v4/nodes/page', { first: 1, last: 1 })).toBe(
      '<http:/localhost/api/v4/nodes/page/1>; rel=first, <http:/localhost/api/v4/nodes/page/1>; rel=last, ',
    );
  });
});
