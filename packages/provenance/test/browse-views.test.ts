import { describe, expect, it } from 'vitest';
import { arrayPlot, columnsOf } from '../src/browse/arrays.js';
import { layoutNeighbourhood, type Neighbourhood, nodeCaption } from '../src/browse/graph-svg.js';
import { listConditions, listHref, parseListFilters } from '../src/browse/list-filters.js';
import { nodePage } from '../src/browse/node-page.js';
import type { NodeView } from '../src/browse/node-view.js';
import { MAX_POINTS, plotSvg, sampleIndexes, ticks } from '../src/browse/plot-svg.js';
import { countEntries, repositoryEntries, subtree, textOf } from '../src/browse/repository-files.js';
import { structureSvg } from '../src/browse/structure-svg.js';
import { buildTypeTree, selectedPath, type TypeTreeNode } from '../src/browse/type-tree.js';
import { byteSize, fileHref, jsonText, valueTable } from '../src/browse/values.js';
import type { LinkedNode, NodeSummary } from '../src/storage/aiida/browse.js';
import { structureOf } from '../src/wire/structure.js';

const outline = (nodes: TypeTreeNode[]): unknown[] =>
  nodes.map((n) => [n.label, n.count, n.processType ?? null, ...(n.children.length ? [outline(n.children)] : [])]);

describe('the type tree', () => {
  const types = [
    { nodeType: 'data.core.int.Int.', processType: '', count: 3 },
    { nodeType: 'data.core.structure.StructureData.', processType: '', count: 2 },
    {
      nodeType: 'process.calculation.calcjob.CalcJobNode.',
      processType: 'aiida.calculations:core.arithmetic.add',
      count: 4,
    },
    { nodeType: 'process.calculation.calcjob.CalcJobNode.', processType: '', count: 1 },
  ];

  it('splits node types at their dots, merges single-child chains and puts process types under their node type', () => {
    expect(outline(buildTypeTree(types))).toEqual([
      [
        'data.core',
        5,
        null,
        [
          ['int.Int', 3, null],
          ['structure.StructureData', 2, null],
        ],
      ],
      [
        'process.calculation.calcjob.CalcJobNode',
        5,
        null,
        [
          ['(no process type)', 1, ''],
          ['aiida.calculations:core.arithmetic.add', 4, 'aiida.calculations:core.arithmetic.add'],
        ],
      ],
    ]);
  });

  it.each([
    ['data.core.', undefined, ['data.core']],
    ['data.core.int.Int.', undefined, ['data.core', 'int.Int']],
    [
      'process.calculation.calcjob.CalcJobNode.',
      'aiida.calculations:core.arithmetic.add',
      ['process.calculation.calcjob.CalcJobNode', 'aiida.calculations:core.arithmetic.add'],
    ],
    ['data.core.float.', undefined, []],
  ])('selects %s / %s', (nodeType, processType, path) => {
    expect(selectedPath(buildTypeTree(types), nodeType, processType).map((n) => n.label)).toEqual(path);
  });
});

describe('list filters', () => {
  it.each([
    [{}, { nodeType: '', label: '', from: '', to: '', page: 1 }, []],
    [
      { node_type: 'data.', label: ' relax ', from: '2024-02-29', to: '2024-03-01', page: '3' },
      { nodeType: 'data.', label: 'relax', from: '2024-02-29', to: '2024-03-01', page: 3 },
      [],
    ],
    [{ process_type: '' }, { nodeType: '', processType: '', label: '', from: '', to: '', page: 1 }, []],
    [
      { from: '2023-02-29', to: 'yesterday', page: '0' },
      { nodeType: '', label: '', from: '', to: '', page: 1 },
      [
        '"2023-02-29" is not a date (YYYY-MM-DD).',
        '"yesterday" is not a date (YYYY-MM-DD).',
        'The page must be a whole number from 1 to 20000.',
      ],
    ],
    [
      { label: 'x'.repeat(201), page: '20001' },
      { nodeType: '', label: '', from: '', to: '', page: 1 },
      ['The label filter is longer than 200 characters.', 'The page must be a whole number from 1 to 20000.'],
    ],
    [{ node_type: ['a.', 'b.'] }, { nodeType: 'b.', label: '', from: '', to: '', page: 1 }, []],
  ])('%j', (query, filters, errors) => {
    expect(parseListFilters(query)).toEqual({ filters, errors });
  });

  it('compiles to a type prefix, the exact process type, a label substring and whole UTC days', () => {
    const { filters } = parseListFilters({
      node_type: 'data.core_x.',
      process_type: '',
      label: '50%',
      from: '2024-01-01',
      to: '2024-01-31',
    });
    expect(listConditions(filters)).toEqual([
      { column: 'node_type', op: 'like', value: 'data.core\\_x.%' },
      {
        or: [
          { column: 'process_type', op: '==', value: '' },
          { column: 'process_type', op: '==', value: null },
        ],
      },
      { column: 'label', op: 'like', value: '%50\\%%' },
      { column: 'ctime', op: '>=', value: new Date('2024-01-01T00:00:00Z') },
      { column: 'ctime', op: '<', value: new Date('2024-02-01T00:00:00Z') },
    ]);
  });

  it('links keep the filters and change only what they name', () => {
    const { filters } = parseListFilters({ node_type: 'data.', label: 'a b', page: '2' });
    expect(listHref('/browse/s/nodes', filters, { page: 3 })).toBe('/browse/s/nodes?node_type=data.&label=a+b&page=3');
    expect(listHref('/browse/s/nodes', filters, { nodeType: '', page: 1 })).toBe('/browse/s/nodes?label=a+b');
  });
});

const summary = (id: number, nodeType = 'data.core.int.Int.', label = ''): NodeSummary => ({
  id,
  uuid: `00000000-0000-0000-0000-${String(id).padStart(12, '0')}`,
  node_type: nodeType,
  process_type: null,
  label,
});
const link = (id: number, from: number, label: string): LinkedNode => ({
  ...summary(id),
  from,
  link_label: label,
  link_type: 'input_calc',
});

describe('the provenance graph', () => {
  it('places inputs left and outputs right, each node once, and draws every link between placed nodes', () => {
    const n: Neighbourhood = {
      centre: summary(1, 'process.calculation.calcjob.CalcJobNode.'),
      incoming: [link(2, 1, 'x'), link(3, 1, 'y')],
      outgoing: [link(4, 1, 'sum')],
      incoming2: [link(5, 2, 'a'), link(5, 3, 'b'), link(4, 3, 'loop')],
      outgoing2: [link(6, 4, 'next')],
      totals: { incoming: 2, outgoing: 1 },
    };
    const { nodes, edges } = layoutNeighbourhood(n);
    expect(nodes.map((p) => [p.node.id, p.column, p.row])).toEqual([
      [1, 0, 0],
      [2, -1, 0],
      [3, -1, 1],
      [4, 1, 0],
      [5, -2, 0],
      [6, 2, 0],
    ]);
    expect(edges.map((e) => `${e.from}>${e.to} ${e.label}`)).toEqual([
      '2>1 x',
      '3>1 y',
      '5>2 a',
      '5>3 b',
      '4>3 loop',
      '1>4 sum',
      '4>6 next',
    ]);
  });

  it.each([
    [summary(1, 'data.core.int.Int.', 'x'), ['x', 'Int']],
    [summary(1, 'data.core.int.Int.'), ['Int', '']],
    [
      { ...summary(1, 'process.workflow.workchain.WorkChainNode.'), process_type: 'aiida.workflows:pw.relax' },
      ['relax', 'WorkChainNode'],
    ],
  ])('captions %j', (node, caption) => {
    expect(nodeCaption(node)).toEqual(caption);
  });
});

describe('structures, plots and values', () => {
  it('draws the 12 cell edges and one circle per site, at most 2000', () => {
    const attributes = {
      cell: [
        [4, 0, 0],
        [0, 4, 0],
        [0, 0, 4],
      ],
      kinds: [{ name: 'Ba', symbols: ['Ba'] }],
      sites: Array.from({ length: 2500 }, (_, i) => ({ kind_name: 'Ba', position: [i % 4, 0, 0] })),
    };
    const svg = (sites: number) =>
      structureSvg(structureOf({ ...attributes, sites: attributes.sites.slice(0, sites) })).text;
    const count = (text: string, tag: string) => text.split(`<${tag} `).length - 1;
    expect([count(svg(5), 'line'), count(svg(5), 'circle'), count(svg(5), 'text')]).toEqual([12, 5, 5]);
    expect([count(svg(2500), 'circle'), count(svg(2500), 'text')]).toEqual([2000, 0]);
  });

  it.each([
    [0, []],
    [3, [0, 1, 2]],
    [MAX_POINTS, Array.from({ length: MAX_POINTS }, (_, i) => i)],
    [MAX_POINTS + 1, Array.from({ length: MAX_POINTS / 2 + 1 }, (_, i) => i * 2)],
    [MAX_POINTS + 2, [...Array.from({ length: MAX_POINTS / 2 + 1 }, (_, i) => i * 2), MAX_POINTS + 1]],
  ])('samples %i points', (length, indexes) => {
    expect(sampleIndexes(length)).toEqual(indexes);
  });

  it.each([
    [0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [-3701.5, -3700, [-3701.5, -3701, -3700.5, -3700]],
    [3, 3, [3]],
    [0, 1e6, [0, 200000, 400000, 600000, 800000, 1000000]],
  ])('ticks from %d to %d', (low, high, expected) => {
    expect(ticks(low, high)).toEqual(expected);
  });

  it.each([
    [[5], 'plot', 1],
    [[1, 5, 3], 'plot', 3],
    [[2, 2, 2], '3-dimensional: not plotted', 0],
    [[1], 'fewer than two points: not plotted', 0],
  ])('an array of shape %j: %s', (shape, what, series) => {
    const values = Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i);
    const view = arrayPlot('a', shape, values, {}, false);
    expect(view.plot ? ['plot', view.plot.series.length] : [view.note, 0]).toEqual([what, series]);
  });

  it('splits a C-ordered table into columns and marks band labels', () => {
    expect(columnsOf([1, 2, 3, 4, 5, 6], 3, 2)).toEqual([
      [1, 3, 5],
      [2, 4, 6],
    ]);
    const view = arrayPlot('bands', [2, 2], [0, 1, 2, 3], { label_numbers: [0, 1], labels: ['G', 'X'] }, true);
    expect(view.plot?.marks).toEqual([
      { at: 0, label: 'G' },
      { at: 1, label: 'X' },
    ]);
    expect(plotSvg(view.plot ?? { series: [] }).text.split('<polyline').length - 1).toBe(2);
  });

  it('shows dictionaries as nested tables and escapes their content', () => {
    const table = valueTable({ '<k>': { inner: [1, 2] }, s: '<b>' }).text;
    expect(table).toContain('<th scope="row">&lt;k&gt;</th><td><table class="dict"><tr><th scope="row">inner</th>');
    expect(table).toContain('<td>&lt;b&gt;</td>');
    const wide = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `k${i}`,
        Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`j${j}`, j])),
      ]),
    );
    const rows = (text: string) => text.split('<tr>').length - 1;
    expect(rows(valueTable(wide).text)).toBe(1000 + 16);
    expect(jsonText({ a: 'x'.repeat(50) }, 20)).toBe('{\n  "a": "xxxxxxxxxx\n… (43 more characters)');
  });

  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KiB'],
    [709_632, '693 KiB'],
    [5 * 1024 ** 3, '5.0 GiB'],
  ])('%i bytes read %s', (bytes, text) => {
    expect(byteSize(bytes)).toBe(text);
  });
});

describe('the node page', () => {
  const view = (nodeType: string, attributes: Record<string, unknown>): NodeView => {
    const node = {
      ...summary(7, nodeType, '<x>'),
      description: '',
      ctime: new Date('2024-01-01T00:00:00Z'),
      mtime: new Date('2024-01-02T00:00:00Z'),
      user_id: 1,
      dbcomputer_id: null,
      attributes,
      extras: {},
      repository_metadata: {},
    };
    const totals = { incoming: 0, outgoing: 0 };
    const graph = { centre: node, incoming: [], outgoing: [], incoming2: [], outgoing2: [], totals };
    return { source: 's', node, user: 'A B', incoming: [], outgoing: [], totals, graph, comments: [], sizeOf: () => 0 };
  };

  it.each([
    ['data.core.structure.StructureData.', { sites: [{ kind_name: 'X' }] }, 'could not be drawn'],
    [
      'data.core.structure.StructureData.',
      { kinds: [{ name: 'Si', symbols: ['Si'] }], sites: [{ kind_name: 'Si', position: [0, 0, 0] }] },
      '<span class="formula">Si</span>',
    ],
    [
      'data.core.dict.Dict.',
      { a: 1 },
      '<section id="dict"><h2>Dictionary</h2><table class="dict"><tr><th scope="row">a</th>',
    ],
    ['data.core.int.Int.', { value: 5 }, '<p class="value"><code>5</code></p>'],
  ])('%s %j shows %s', (nodeType, attributes, expected) => {
    const text = nodePage(view(nodeType, attributes));
    expect(text).toContain(expected);
    expect(text).toContain('<h1>&lt;x&gt;');
  });
});

describe('repository files', () => {
  const tree = { o: { b: { o: { 'x y.txt': { k: 'k1' }, sub: { o: {} } } }, 'a.in': { k: 'k2' } } };

  it('lists entries depth first, directories before their contents, and finds subtrees', () => {
    expect(repositoryEntries(tree).map((e) => [e.path, e.key ?? null, e.depth])).toEqual([
      ['a.in', 'k2', 0],
      ['b', null, 0],
      ['b/sub', null, 1],
      ['b/x y.txt', 'k1', 1],
    ]);
    expect(repositoryEntries(tree, 2).length).toBe(2);
    expect(repositoryEntries(subtree(tree, 'b') ?? {}, 10, 'b').map((e) => e.path)).toEqual(['b/sub', 'b/x y.txt']);
    expect([countEntries(tree), countEntries(tree, 2), subtree(tree, 'nope/x')]).toEqual([4, 2, undefined]);
    expect(fileHref('s', 'u', 'b/x y.txt', true)).toBe('/browse/s/nodes/u/raw/b/x%20y.txt');
  });

  it.each([
    ['plain text', Buffer.from('energy = -3701.0\n'), true],
    ['UTF-8 text cut inside a character', Buffer.from('Cu₂O ü').subarray(0, 4), true],
    ['a NUL byte', Buffer.from([0x93, 0x4e, 0x55, 0x00]), false],
    ['Latin-1 bytes', Buffer.from(Array.from({ length: 64 }, (_, i) => 0xc0 + (i % 32))), false],
  ])('%s reads as text: %s', (_name, bytes, isText) => {
    expect(textOf(bytes) !== undefined).toBe(isText);
  });
});
