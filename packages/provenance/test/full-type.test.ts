import { describe, expect, it } from 'vitest';
import { fullTypeCondition } from '../src/wire/full-type.js';
import { buildNamespaceTree, type NamespaceDescription } from '../src/wire/namespace-tree.js';

describe('fullTypeCondition (get_full_type_filters)', () => {
  it.each([
    [
      'node_type|',
      [
        { column: 'node_type', op: '==', value: 'node_type' },
        {
          or: [
            { column: 'process_type', op: '==', value: '' },
            { column: 'process_type', op: '==', value: null },
          ],
        },
      ],
    ],
    ['node_type%|%', [{ column: 'node_type', op: 'like', value: 'node\\_type%' }]],
    [
      'data.%|',
      [
        { column: 'node_type', op: 'like', value: 'data.%' },
        {
          or: [
            { column: 'process_type', op: '==', value: '' },
            { column: 'process_type', op: '==', value: null },
          ],
        },
      ],
    ],
    [
      'process.calculation.calcjob.CalcJobNode.|aiida.calculations:core.arithmetic.%',
      [
        { column: 'node_type', op: '==', value: 'process.calculation.calcjob.CalcJobNode.' },
        { column: 'process_type', op: 'like', value: 'aiida.calculations:core.arithmetic.%' },
      ],
    ],
    [
      'a.|x.y',
      [
        { column: 'node_type', op: '==', value: 'a.' },
        { column: 'process_type', op: '==', value: 'x.y' },
      ],
    ],
  ])('%s', (fullType, and) => {
    expect(fullTypeCondition(fullType)).toEqual({ and });
  });

  it.each([
    ['xyz', 'full type `xyz` does not include the required concatenator symbol `|`.'],
    ['a|b|c', 'full type `a|b|c` includes the concatenator symbol `|` more than once.'],
    ['a%%|', 'full type component `a%%` contained more than one like-operator character'],
    ['a|b%%', 'full type component `b%%` contained more than one like-operator character'],
    ['a%b|', 'like-operator character in full type component `a%b` is not at the end'],
  ])('%s fails with status 500', (fullType, message) => {
    expect(() => fullTypeCondition(fullType)).toThrow(message);
  });
});

function flatten(tree: NamespaceDescription, depth = 0): string[] {
  return [
    `${'  '.repeat(depth)}${tree.label} ${tree.path} ${tree.full_type} ${tree.counter ?? ''}`.trimEnd(),
    ...tree.subspaces.flatMap((s) => flatten(s, depth + 1)),
  ];
}

describe('buildNamespaceTree (get_node_namespace)', () => {
  it('reproduces the reference tree with counters', () => {
    const tree = buildNamespaceTree(
      [
        { nodeType: 'data.core.int.Int.', processType: '', count: 3 },
        {
          nodeType: 'process.workflow.workchain.WorkChainNode.',
          processType: 'aiida.workflows:core.arithmetic.multiply_add',
          count: 1,
        },
        {
          nodeType: 'process.calculation.calcjob.CalcJobNode.',
          processType: 'aiida.calculations:core.arithmetic.add',
          count: 1,
        },
        {
          nodeType: 'process.calculation.calcfunction.CalcFunctionNode.',
          processType: 'some.module.my_function',
          count: 1,
        },
      ],
      true,
    );
    expect(flatten(tree)).toEqual([
      'node node node.%| 6',
      '  Data node.data data.%| 3',
      '    core node.data.core data.core.%| 3',
      '      Int node.data.core.int data.core.int.Int.| 3',
      '  Process node.process process.%|% 3',
      '    Calculation node.process.calculation process.calculation.%|% 2',
      '      Calculation function node.process.calculation.calcfunction process.calculation.calcfunction.%|% 1',
      '        Unregistered node.process.calculation.calcfunction.~no-entry-point~ null 1',
      '          some node.process.calculation.calcfunction.~no-entry-point~.some process.calculation.calcfunction.CalcFunctionNode.|some.% 1',
      '            module node.process.calculation.calcfunction.~no-entry-point~.some.module process.calculation.calcfunction.CalcFunctionNode.|some.module.% 1',
      '              my_function node.process.calculation.calcfunction.~no-entry-point~.some.module.my_function process.calculation.calcfunction.CalcFunctionNode.|some.module.my_function 1',
      '      Calculation job node.process.calculation.calcjob process.calculation.calcjob.%|% 1',
      '        core node.process.calculation.calcjob.core process.calculation.calcjob.CalcJobNode.|aiida.calculations:core.% 1',
      '          arithmetic node.process.calculation.calcjob.core.arithmetic process.calculation.calcjob.CalcJobNode.|aiida.calculations:core.arithmetic.% 1',
      '            add node.process.calculation.calcjob.core.arithmetic.add process.calculation.calcjob.CalcJobNode.|aiida.calculations:core.arithmetic.add 1',
      '    Workflow node.process.workflow process.workflow.%|% 1',
      '      Work chain node.process.workflow.workchain process.workflow.workchain.%|% 1',
      '        core node.process.workflow.workchain.core process.workflow.workchain.WorkChainNode.|aiida.workflows:core.% 1',
      '          arithmetic node.process.workflow.workchain.core.arithmetic process.workflow.workchain.WorkChainNode.|aiida.workflows:core.arithmetic.% 1',
      '            multiply_add node.process.workflow.workchain.core.arithmetic.multiply_add process.workflow.workchain.WorkChainNode.|aiida.workflows:core.arithmetic.multiply_add 1',
    ]);
  });

  it('nests a leaf that later needs children, keeping its path (ArrayData under array)', () => {
    const tree = buildNamespaceTree(
      [
        { nodeType: 'data.core.array.kpoints.KpointsData.', processType: '' },
        { nodeType: 'data.core.array.ArrayData.', processType: '' },
        { nodeType: 'process.calculation.calcjob.CalcJobNode.', processType: '' },
      ],
      false,
    );
    expect(flatten(tree)).toEqual([
      'node node node.%|',
      '  Data node.data data.%|',
      '    core node.data.core data.core.%|',
      '      array node.data.core.array data.core.array.%|',
      '        ArrayData node.data.core.array data.core.array.ArrayData.|',
      '        KpointsData node.data.core.array.kpoints data.core.array.kpoints.KpointsData.|',
      '  Process node.process process.%|%',
      '    Calculation node.process.calculation process.calculation.%|%',
      '      CalcJobNode node.process.calculation.calcjob process.calculation.calcjob.CalcJobNode.|',
    ]);
    expect(tree.subspaces[0]?.subspaces[0]?.subspaces[0]?.subspaces[0]?.namespace).toBe('array');
    expect('counter' in tree).toBe(false);
  });
});
