import { describe, expect, it } from 'vitest';
import { parseQueryString, QueryStringError, TimeFormatError, unquote } from '../src/wire/query-string.js';

const dt = (iso: string, precision: number) => ({ kind: 'datetime', instant: new Date(iso), precision });

describe('parseQueryString', () => {
  const cases: [string, unknown][] = [
    ['', []],
    [
      'limit=2&offset=8&orderby=-id',
      [
        { key: 'limit', operator: '=', value: 2 },
        { key: 'offset', operator: '=', value: 8 },
        { key: 'orderby', operator: '=', value: '-id' },
      ],
    ],
    [
      '&id>=3&id<6&',
      [
        { key: 'id', operator: '>=', value: 3 },
        { key: 'id', operator: '<', value: 6 },
      ],
    ],
    ['orderby=+id,-ctime,', [{ key: 'orderby', operator: '=', value: ['+id', '-ctime'] }]],
    ['uuid=like="cdfd48%"', [{ key: 'uuid', operator: '=like=', value: 'cdfd48%' }]],
    ['label=ilike="a""b"', [{ key: 'label', operator: '=ilike=', value: 'a"b' }]],
    ['id=in=1,2,3', [{ key: 'id', operator: '=in=', value: [1, 2, 3] }]],
    ['id=notin=1,2', [{ key: 'id', operator: '=notin=', value: [1, 2] }]],
    [
      'attributes=true&extras=false',
      [
        { key: 'attributes', operator: '=', value: true },
        { key: 'extras', operator: '=', value: false },
      ],
    ],
    [
      'x=1.5e3&y=-2&z=.5',
      [
        { key: 'x', operator: '=', value: { kind: 'float', value: 1500 } },
        { key: 'y', operator: '=', value: -2 },
        { key: 'z', operator: '=', value: { kind: 'float', value: 0.5 } },
      ],
    ],
    ['download=False', [{ key: 'download', operator: '=', value: 'False' }]],
    ['label!=foo', [{ key: 'label', operator: '!=', value: 'foo' }]],
    ['_=12345&id=1', [{ key: 'id', operator: '=', value: 1 }]],
    ['ctime=2019-04-23', [{ key: 'ctime', operator: '=', value: dt('2019-04-23T00:00:00Z', 1) }]],
    ['ctime>2019-04-23T05:45+03:45', [{ key: 'ctime', operator: '>', value: dt('2019-04-23T02:00:00Z', 4) }]],
    ['mtime<=2019-04-23T05:45:10', [{ key: 'mtime', operator: '<=', value: dt('2019-04-23T05:45:10Z', 4) }]],
    ['ctime=2019-04-23T05', [{ key: 'ctime', operator: '=', value: dt('2019-04-23T05:00:00Z', 2) }]],
    ['attributes_filter=a,b', [{ key: 'attributes_filter', operator: '=', value: ['a', 'b'] }]],
  ];
  it.each(cases)('parses %j', (text, expected) => {
    expect(parseQueryString(text)).toEqual(expected);
  });

  const failures: [string, string][] = [
    ['node_type=data.core.dict.Dict.', `Expected end of text, found '.'  (at char 14), (line:1, col:15).`],
    ['id==3', `found '='  (at char 3)`],
    ['label="unterminated', `found '"'  (at char 6)`],
    ['=3', `found '='  (at char 0)`],
    ['a=b&&c=d', `found '&'  (at char 4)`],
    ['id', 'found end of text  (at char 2)'],
  ];
  it.each(failures)('rejects %j with the reference message', (text, detail) => {
    let error: unknown;
    try {
      parseQueryString(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QueryStringError);
    const message = (error as Error).message;
    expect(message).toMatch(/^The query string format is invalid\. Parser returned this massage: "/);
    expect(message).toContain(detail);
    expect(message).toMatch(
      /Please notice that the column number is counted from the first character of the query string\.$/,
    );
  });

  it.each(['ctime=2019-13-45', 'ctime=2019-02-30', 'ctime=2019-01-01T25'])('rejects the impossible date %j', (text) => {
    expect(() => parseQueryString(text)).toThrow(TimeFormatError);
  });
});

describe('unquote', () => {
  it.each([
    ['first_name=ilike=%22aii%25%22', 'first_name=ilike="aii%"'],
    ['a+b', 'a+b'],
    ['%E2%82%AC', '€'],
    ['100%', '100%'],
    ['%zz', '%zz'],
  ])('%j → %j', (input, output) => {
    expect(unquote(input)).toBe(output);
  });
});
