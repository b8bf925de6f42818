import { describe, expect, it } from 'vitest';
import { downloadFormatsFor, exportClassOf, loadNodeClass } from '../src/wire/download-formats.js';
import { checkOperand } from '../src/wire/filter-operands.js';
import { fullTypeFilter } from '../src/wire/full-type.js';
import { buildNamespaceTree, type NamespaceDescription } from '../src/wire/namespace-tree.js';
import { treeDescription } from '../src/wire/node-types.js';
import { pageWindow, treeLimit } from '../src/wire/pagination.js';
import { pyInt } from '../src/wire/python-values.js';
import { type FieldValue, parseQueryString } from '../src/wire/query-string.js';
import { parseQueryBuilder } from '../src/wire/querybuilder.js';
import { integerAffinity, textAffinity } from '../src/wire/sqlite-affinity.js';
import { NO_USER, referenceUserFilter } from '../src/wire/user-filter.js';
import { failure, params } from './support/wire.js';

/**
 * Rules derived from aiida-core's own code (aiida-core main @ 60eef76a, `src/aiida/…`), one table per rule;
 * each names the function it follows. The HTTP counterparts run in shaped-archives-http.test.ts.
 */

const parsedValue = (text: string): FieldValue => parseQueryString(`k=${text}`)[0]?.value as FieldValue;

describe('restapi/common/utils.py Utils.parse_query_string: pyparsing_common.number', () => {
  it.each([
    ['5', 5],
    ['-5', -5],
    ['5.0', { kind: 'float', value: 5 }],
    ['1e3', { kind: 'float', value: 1000 }],
    ['.5', { kind: 'float', value: 0.5 }],
    ['"5"', '5'],
  ])('%s is %j (sci_real and real are floats, signed_integer an int)', (text, expected) => {
    expect(parsedValue(text)).toEqual(expected);
  });
});

describe('Utils.parse_query_string validate_time: datetime.fromisoformat (Python ≥ 3.11) and the precision', () => {
  const interval = (text: string) => params(`ctime=${text}`).filters.map((f) => (f.value as Date).toISOString());
  it.each([
    ['2025-03-01', ['2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z']],
    ['2025-03-01T10', ['2025-03-01T10:00:00.000Z', '2025-03-01T11:00:00.000Z']],
    ['2025-03-01T10:30+02:00', ['2025-03-01T08:30:00.000Z', '2025-03-01T08:30:01.000Z']],
    ['2025-03-01+02:00', ['2025-03-01T02:00:00.000Z', '2025-03-01T03:00:00.000Z']],
    ['2025-03-01-02', ['2025-03-01T02:00:00.000Z', '2025-03-02T02:00:00.000Z']],
    ['2025-03-01T10+02:60', ['2025-03-01T07:00:00.000Z', '2025-03-01T07:01:00.000Z']],
    ['0050-03-01', ['0050-03-01T00:00:00.000Z', '0050-03-02T00:00:00.000Z']],
  ])('ctime=%s is the interval %j', (text, expected) => {
    expect(interval(text)).toEqual(expected);
  });

  it.each(['2025-02-30', '2025-03-01+24', '2025-03-01T10+24', '2025-03-01+02:60', '0000-03-01', '2025-03-01T10:30:60'])(
    'ctime=%s is a wrong time format (404)',
    (text) => {
      expect(failure(() => params(`ctime=${text}`))?.message).toMatch(/^time value has wrong format/);
    },
  );

  it('ends a date at & or the end only (WordEnd): before a comma it is no date', () => {
    expect(failure(() => params('ctime=in=2020-01-01,2020-01-02'))?.message).toContain(
      "Expected end of text, found '-'  (at char 13), (line:1, col:14)",
    );
    expect(parseQueryString('id=in=1,2020-01-02')[0]?.value).toMatchObject([1, { kind: 'datetime' }]);
  });
});

describe('restapi/translator/base.py BaseTranslator.set_limit_offset and Utils.paginate: int() of the value', () => {
  it.each([
    ['limit=5', 5],
    ['limit="5"', 5],
    ['limit=" 7 "', 7],
    ['limit="1_0"', 10],
    ['limit=2.9', 2],
    ['limit=true', 1],
    ['limit=false', 0],
  ])('%s fetches %i rows', (text, limit) => {
    expect(pageWindow(params(text), undefined, 50).limit).toBe(limit);
  });

  it.each([
    ['limit=abc', 'Limit value must be an integer'],
    ['limit="5.0"', 'Limit value must be an integer'],
    ['offset="x"', 'Offset value must be an integer'],
    ['limit=1,2', "int() argument must be a string, a bytes-like object or a real number, not 'list'"],
    [
      'limit=2020-01-01',
      "int() argument must be a string, a bytes-like object or a real number, not 'DatetimePrecision'",
    ],
    ['limit=1e999', 'cannot convert float infinity to integer'],
  ])('%s answers 500 %j', (text, message) => {
    expect(failure(() => pageWindow(params(text), undefined, 50))).toEqual({ status: 500, message });
  });

  it.each([
    ['perpage="3"', 3],
    ['perpage=3.5', 3],
  ])('%s pages by %i', (text, perpage) => {
    expect(pageWindow(params(text), 2, 50)).toMatchObject({ limit: perpage, offset: perpage });
  });

  it('answers perpage=abc with paginate’s message and perpage=0 with no rows as 0 rows fit on page 1', () => {
    expect(failure(() => pageWindow(params('perpage=abc'), 1, 5))).toEqual({
      status: 500,
      message: 'perpage must be an integer',
    });
    expect(pageWindow(params('perpage=0'), 1, 0)).toMatchObject({ limit: 0, offset: 0 });
  });
});

describe('orm/querybuilder.py QueryBuilder.limit, as NodeTranslator.get_io_tree passes in_limit/out_limit', () => {
  it.each([
    ['in_limit=2', 2],
    ['in_limit=0', 0],
    ['in_limit=true', 1],
    ['in_limit=-1', undefined],
    ['', undefined],
  ])('%s limits to %s', (text, limit) => {
    expect(treeLimit(params(text).inLimit)).toBe(limit);
  });

  it.each(['in_limit=2.0', 'in_limit="2"', 'in_limit=abc', 'in_limit=1,2', 'in_limit=2020-01-01'])(
    '%s answers 500 (TypeError)',
    (text) => {
      expect(failure(() => treeLimit(params(text).inLimit))).toEqual({
        status: 500,
        message: 'The limit has to be an integer, or None',
      });
    },
  );

  it('treats the documented tree_in_limit as a column filter (build_translator_parameters does not reserve it)', () => {
    expect(params('tree_in_limit=3')).toMatchObject({ inLimit: undefined, filters: [{ column: 'tree_in_limit' }] });
  });
});

describe("restapi/resources.py Node.get: statistics and full_types_count read filters['user']['==']", () => {
  it.each([
    ['', undefined],
    ['user=2', 2],
    ['user="2"', 2],
    ['user=true', 1],
    ['user=2.0', 2],
    ['user=abc', NO_USER],
    ['user=0', NO_USER],
    ['user=2&foo=1', 2],
  ])('%j selects user %s', (text, user) => {
    expect(referenceUserFilter(params(text).filterFields)).toBe(user);
  });

  it.each([
    ['user_id=1', "'user'"],
    ['pk=1', "'user'"],
    ['user=in=1,2', "'=='"],
    ['user>1', "'=='"],
    ['user=1&user=2', "'=='"],
    ['user=2020-01-01', "'=='"],
  ])('%j answers 500 %s (KeyError)', (text, message) => {
    expect(failure(() => referenceUserFilter(params(text).filterFields))).toEqual({ status: 500, message });
  });
});

describe('storage/psql_dos/orm/querybuilder/main.py SqlaQueryBuilder.get_filter_expr operand checks', () => {
  const filter = (text: string) => {
    const [first] = params(text).filters;
    if (!first) throw new Error('no filter');
    return checkOperand(first);
  };

  it.each([
    ['id=in=1,2', [1, 2]],
    ['label=in="ab"', ['a', 'b']],
    ['label=notin=xy', ['x', 'y']],
  ])('%s compares with %j', (text, value) => {
    expect(filter(text).value).toEqual(value);
  });

  it.each([
    ['id=in=1', 'Value for operator `in` could not be iterated'],
    ['id=notin=true', 'Value for operator `in` could not be iterated'],
    ['ctime=in=2020-01-01', 'Value for operator `in` could not be iterated'],
    ['label=in=""', 'Value for operator `in` is an empty list'],
    ['id=in=1,2.0', 'Value for operator `in` contains more than one type: [1, 2.0]'],
    ['id=in=1,"a",true', "Value for operator `in` contains more than one type: [1, 'a', True]"],
    ['label=like=5', 'Value for operator like has to be a string (you gave 5)'],
    ['label=ilike=true', 'Value for operator ilike has to be a string (you gave True)'],
    ['ctime="2025-03-01"', "(builtins.AttributeError) 'str' object has no attribute 'tzinfo'"],
    ['mtime>5', "(builtins.AttributeError) 'int' object has no attribute 'tzinfo'"],
  ])('%s answers 500 %j', (text, message) => {
    expect(failure(() => filter(text))).toEqual({ status: 500, message });
  });

  it('lets a LIKE on a time column through (the column is cast to text) and compares dates', () => {
    expect(filter('ctime=like="2025%"').value).toBe('2025%');
    expect(filter('ctime>2025-03-01').op).toBe('>');
  });

  it.each([
    [{ label: { in: 'ab' } }, ['a', 'b']],
    [{ id: { in: [1, 2] } }, [1, 2]],
  ])('QueryBuilder POST filter %j compares with %j', (filters, value) => {
    const plan = parseQueryBuilder({ path: [{ entity_type: '', tag: 'n' }], filters: { n: filters }, project: {} });
    expect(plan.vertices[0]?.where[0]).toMatchObject({ value });
  });

  it.each([
    [{ id: { in: 1 } }, 'Value for operator `in` could not be iterated'],
    [{ id: { '!in': null } }, 'Value for operator `in` could not be iterated'],
    [{ id: { in: [] } }, 'Value for operator `in` is an empty list'],
    [{ id: { in: [1, 'a'] } }, "Value for operator `in` contains more than one type: [1, 'a']"],
    [{ label: { like: 3 } }, 'Value for operator like has to be a string (you gave 3)'],
    [{ 'attributes.x': { of_length: 'a' } }, 'You have to give an integer when comparing to a length'],
  ])('QueryBuilder POST filter %j answers 500 %j', (filters, message) => {
    const body = { path: [{ entity_type: '', tag: 'n' }], filters: { n: filters }, project: {} };
    expect(failure(() => parseQueryBuilder(body))).toEqual({ status: 500, message });
  });
});

describe("resources.py Node.get: download not in ['false', 'False', False]", () => {
  it.each([
    ['download=false', false],
    ['download=False', false],
    ['download="false"', false],
    ['download="FALSE"', true],
    ['download=0', true],
  ])('%s downloads: %s', (text, download) => {
    expect(params(text).download).toBe(download);
  });
});

describe('storage/sqlite_zip: SQLite type affinity of the compared column', () => {
  it.each([
    ['3', 3],
    [' 3.0 ', 3],
    ['3a', '3a'],
    [4, 4],
  ])('INTEGER column compares %j as %j', (value, expected) => {
    expect(integerAffinity(value)).toBe(expected);
  });

  it.each([
    [5, '5'],
    [true, '1'],
    ['x', 'x'],
  ])('TEXT column compares %j as %j', (value, expected) => {
    expect(textAffinity(value)).toBe(expected);
  });
});

describe('restapi/common/identifiers.py validate_full_type: type_check(full_type, str) when truthy', () => {
  it.each(['full_type=""', 'full_type=0', 'full_type=false'])('%s filters nothing', (text) => {
    expect(fullTypeFilter(params(text).fullType)).toBeUndefined();
  });

  it.each([
    ['full_type=5', "Got object of type '<class 'int'>', expecting '<class 'str'>'"],
    ['full_type=true', "Got object of type '<class 'bool'>', expecting '<class 'str'>'"],
    ['full_type=a,b', "Got object of type '<class 'list'>', expecting '<class 'str'>'"],
  ])('%s answers 500 %j', (text, message) => {
    expect(failure(() => fullTypeFilter(params(text).fullType))).toEqual({ status: 500, message });
  });
});

describe('NodeTranslator.get_all_download_formats / identifiers.load_entry_point_from_full_type', () => {
  it.each([
    [
      '"data.core.structure.StructureData.|"',
      { 'data.core.structure.StructureData.|': ['chemdoodle', 'cif', 'xsf', 'xyz'] },
    ],
    ['"data.structure.StructureData.|"', { 'data.structure.StructureData.|': ['chemdoodle', 'cif', 'xsf', 'xyz'] }],
    ['"data.core.int.Int.|"', { 'data.core.int.Int.|': [] }],
    [
      '"data.core.structure.StructureData.|whatever"',
      { 'data.core.structure.StructureData.|whatever': ['chemdoodle', 'cif', 'xsf', 'xyz'] },
    ],
    ['"x|aiida.data:core.cif"', { 'x|aiida.data:core.cif': ['cif'] }],
    ['"x|aiida.node:data"', { 'x|aiida.node:data': [] }],
    ['"process.calculation.calcjob.CalcJobNode.|aiida.calculations:core.arithmetic.add"', {}],
    ['"process.workflow.workchain.WorkChainNode.|aiida.workflows:arithmetic.multiply_add"', {}],
  ])('full_type=%s → %j', (text, expected) => {
    expect(downloadFormatsFor(parsedValue(text))).toEqual(expected);
  });

  it.each(['""', '0', 'false'])('full_type=%s (falsy) lists every data class', (text) => {
    expect(Object.keys(downloadFormatsFor(parsedValue(text)))).toContain('data.core.cif.CifData.|');
  });

  it.each([
    ['xyz', 404, 'The full type xyz is invalid.'],
    ['5', 404, 'The full type 5 is invalid.'],
    ['true', 404, 'The full type True is invalid.'],
    ['"a|b|c"', 404, 'The full type a|b|c is invalid.'],
    [
      '"process.calculation.calcjob.CalcJobNode.|aiida.calculations:quantumespresso.pw"',
      501,
      'The download formats for this node type are not available.',
    ],
    [
      '"process.calculation.calcfunction.CalcFunctionNode.|some.module.fn"',
      501,
      'The download formats for this node type are not available.',
    ],
    ['"data.core.structure.%|"', 501, 'The download formats for this node type are not available.'],
    ['"abc|"', 501, 'The download formats for this node type are not available.'],
  ])('full_type=%s answers %i %j', (text, status, message) => {
    expect(failure(() => downloadFormatsFor(parsedValue(text)))).toEqual({ status, message });
  });
});

describe('orm/utils/node.py load_node_class: the class whose formats /download offers', () => {
  it.each([
    ['data.core.structure.StructureData.', 'data.core.structure.StructureData.|'],
    ['data.structure.StructureData.', 'data.core.structure.StructureData.|'],
    ['data.quantumespresso.forces.ForcesData.', 'data.Data.|'],
    ['data.Data.', 'data.Data.|'],
    ['weird.Type.', 'data.Data.|'],
  ])('%s loads as %s', (nodeType, fullType) => {
    expect(exportClassOf(nodeType)?.fullType).toBe(fullType);
  });

  it.each(['process.calculation.calcjob.CalcJobNode.', 'process.workflow.plugin.MissingNode.', ''])(
    '%j is no Data (501)',
    (nodeType) => {
      expect(exportClassOf(nodeType)).toBeUndefined();
    },
  );
});

describe('identifiers.get_node_namespace: is_valid_entry_point_string decides a process leaf’s place', () => {
  const leaves = (node: NamespaceDescription): string[] =>
    node.subspaces.length ? node.subspaces.flatMap(leaves) : [node.path];
  it.each([
    ['aiida.calculations:quantumespresso.pw', 'node.process.calculation.calcjob.quantumespresso.pw'],
    ['aiida.calculations.importers:x.y', 'node.process.calculation.calcjob.x.y'],
    ['aiida.tools.workflows:x', 'node.process.calculation.calcjob.x'],
    ['aiida.brokers:core.rabbitmq', 'node.process.calculation.calcjob.~no-entry-point~.aiida.brokers:core.rabbitmq'],
    ['aiida.calculations:a:b', 'node.process.calculation.calcjob.~no-entry-point~.aiida.calculations:a:b'],
  ])('process type %s is the leaf %s', (processType, path) => {
    const tree = buildNamespaceTree([{ nodeType: 'process.calculation.calcjob.CalcJobNode.', processType }], false);
    expect(leaves(tree)).toEqual([path]);
  });
});

describe('links/tree descriptions: get_description of the class load_node_class loads (inherited)', () => {
  it.each([
    ['data.core.array.bands.BandsData.', 'BandsData'],
    ['data.array.kpoints.KpointsData.', 'KpointsData'],
    ['process.calculation.calcjob.CalcJobNode.', 'CalcJobNode'],
    ['process.calculation.plugin.Missing.', 'ProcessNode'],
    ['data.plugin.thing.Thing.', 'Data'],
    ['', 'Node'],
  ])('%j loads as %s', (nodeType, className) => {
    expect(loadNodeClass(nodeType)).toBe(className);
  });

  it.each([
    ['data.core.array.bands.BandsData.', { 'array|kpoints': [12, 3] }, '', undefined, '(Path of 12 kpts)'],
    ['data.core.code.installed.InstalledCode.', {}, 'pw', 'daint', 'pw@daint'],
    ['data.core.code.containerized.ContainerizedCode.', {}, 'pw', 'daint', 'pw@daint'],
    ['data.core.code.portable.PortableCode.', {}, 'pw', undefined, 'pw'],
    ['data.core.code.Code.', {}, 'pw', undefined, 'pw@repository'],
    ['process.calculation.calcjob.CalcJobNode.', { state: 'parsing' }, '', undefined, 'parsing'],
    ['process.calculation.calcjob.CalcJobNode.', { state: 'FINISHED' }, '', undefined, ''],
    ['data.core.dict.Dict.', { a: 1 }, 'x', undefined, ''],
  ])('%s %j → %j', (nodeType, attributes, label, computer, expected) => {
    expect(treeDescription(nodeType, attributes, label, computer)).toBe(expected);
  });
});

describe('QueryBuilder POST: resources.py QueryBuilder.post and orm/querybuilder.py', () => {
  const node = (tag: string, extra: Record<string, unknown> = {}) => ({ entity_type: '', tag, ...extra });
  it.each([
    [
      { path: [{ entity_type: 'comment', orm_base: 'comment', tag: 'c' }], project: {} },
      'The type string comment is invalid',
    ],
    [{ path: [{ entity_type: 'log', orm_base: 'log', tag: 'l' }], project: {} }, 'The type string log is invalid'],
    [{ path: [{ entity_type: 'authinfo', tag: 'a' }], project: {} }, 'The type string authinfo is invalid'],
    [
      { path: [{ entity_type: 'data.core.dict.Dict', tag: 'd' }], project: {} },
      'The type string data.core.dict.Dict is invalid',
    ],
    [{ path: [{ orm_base: 'group', tag: 'g' }], project: {} }, 'You need to specify at least a class or a entity_type'],
    [{ path: [{ entity_type: 5, tag: 'g' }], project: {} }, '5 was passed as entity_type, but is not a string'],
    [
      { path: [{ entity_type: ['user', ''], tag: 'g' }], project: {} },
      'Non-matching types have been passed as list/tuple/set.',
    ],
    [{ path: [{ entity_type: '' }], project: {} }, "'tag'"],
    [{ path: [], project: {} }, 'list index out of range'],
    [{ path: {}, project: {} }, '-1'],
    [{ path: [node('n')], project: {}, limit: '5' }, 'The limit has to be an integer, or None'],
    [{ path: [node('n')], project: {}, limit: 1.5 }, 'The limit has to be an integer, or None'],
    [{ path: [node('n')], project: {}, offset: 'x' }, 'offset has to be an integer, or None'],
  ])('%j answers 500 %j', (body, message) => {
    expect(failure(() => parseQueryBuilder(body))).toEqual({ status: 500, message });
  });

  it.each([
    [{ limit: -1, offset: -5 }, undefined, 0],
    [{ limit: true, offset: false }, 1, 0],
    [{ limit: 3, offset: 2 }, 3, 2],
  ])('limit/offset %j reach SQLite as %s/%s', (bounds, limit, offset) => {
    expect(parseQueryBuilder({ path: [node('n')], project: {}, ...bounds })).toMatchObject({ limit, offset });
  });

  it('takes the entity from entity_type alone: orm_base is ignored', () => {
    const plan = parseQueryBuilder({ path: [{ entity_type: 'Computer', orm_base: 'node', tag: 'c' }], project: {} });
    expect(plan.vertices[0]?.entity).toBe('computer');
  });
});

describe('pyInt (Python int())', () => {
  it.each([
    ['12', 12],
    ['-3', -3],
    ['+4', 4],
  ])('int(%j) is %i', (text, n) => {
    expect(pyInt(text, 'bad')).toBe(n);
  });
});
