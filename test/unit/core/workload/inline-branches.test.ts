import { describe, expect, it } from 'vitest';
import {
  attr,
  encodeModel,
  OnnxDataType,
  type GraphDef,
  type NodeDef,
} from '../../../../src-main/core/onnx/model-builder.js';
import { parseOnnxModel, type OnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { importOnnxModel } from '../../../../src-main/core/workload/from-onnx.js';
import { inlineBranches, unknownBranchNote } from '../../../../src-main/core/workload/inline-branches.js';
import { isInlinedIf } from '../../../../src-main/core/workload/inlined-if.js';
import { input, ints, weight } from './sample-models.js';

const node = (opType: string, inputs: string[], outputs: string[], name: string): NodeDef => ({
  opType,
  inputs,
  outputs,
  name,
});
const branch = (name: string, nodes: NodeDef[], output: string): GraphDef => ({
  name,
  nodes,
  inputs: [],
  outputs: [input(output, ['N', 8])],
});
const ifNode = (name: string, cond: string, out: string, then: GraphDef, otherwise: GraphDef): NodeDef => ({
  ...node('If', [cond], [out], name),
  attributes: [attr.graph('then_branch', then), attr.graph('else_branch', otherwise)],
});

/**
 * X [N, 8]. `first`: is N 1? (a shape test) then a MatMul and a nested If on the same test,
 * else X passed through. `second`: on the `flag` input (known only at run time), one Relu or
 * three nodes. The then branch names a tensor "one", as the outer graph does.
 */
function model(): OnnxModel {
  const nested = ifNode(
    'nested',
    'isOne',
    'n_out',
    branch('nested_then', [node('Sigmoid', ['mm'], ['n_sig'], 'n_sigmoid')], 'n_sig'),
    branch('nested_else', [node('Relu', ['mm'], ['n_relu'], 'n_relu')], 'n_relu'),
  );
  const first = ifNode(
    'first',
    'isOne',
    'y1',
    {
      ...branch(
        'first_then',
        [node('MatMul', ['X', 'W'], ['mm'], 'mm'), nested, node('Relu', ['n_out'], ['one'], 'inner_relu')],
        'one',
      ),
    },
    branch('first_else', [], 'X'),
  );
  const second = ifNode(
    'second',
    'flag',
    'y2',
    branch('second_then', [node('Relu', ['y1'], ['a'], 'a')], 'a'),
    branch(
      'second_else',
      [node('Relu', ['y1'], ['b1'], 'b1'), node('Sigmoid', ['b1'], ['b2'], 'b2'), node('Relu', ['b2'], ['b3'], 'b3')],
      'b3',
    ),
  );
  const bytes = encodeModel({
    graph: {
      name: 'branches',
      nodes: [
        node('Shape', ['X'], ['shape'], 'shape'),
        node('Gather', ['shape', 'zero'], ['n'], 'n'),
        node('Equal', ['n', 'one'], ['isOne'], 'is_one'),
        first,
        second,
      ],
      inputs: [input('X', ['N', 8]), { name: 'flag', elemType: OnnxDataType.BOOL, dims: [] }],
      outputs: [input('y2', ['N', 8])],
      initializers: [weight('W', [8, 8]), ints('zero', [0], []), ints('one', [1], [])],
    },
  });
  return parseOnnxModel(bytes);
}

const names = (m: OnnxModel): string[] => m.graph.nodes.map((n) => n.name);

describe('inlineBranches', () => {
  it('keeps the branch a shape test picks, nested Ifs included, and the larger one of a run-time test', () => {
    const m = inlineBranches(model(), { dims: { N: 1 } });
    expect(names(m)).toEqual([
      'shape',
      'n',
      'is_one',
      'first',
      'mm',
      'nested',
      'n_sigmoid',
      'inner_relu',
      'second',
      'b1',
      'b2',
      'b3',
    ]);
    const byName = new Map(m.graph.nodes.map((n) => [n.name, n]));
    // Each If stays as a marker that reads its condition and writes nothing.
    for (const name of ['first', 'nested', 'second']) {
      const n = byName.get(name);
      expect(n && isInlinedIf(n)).toBe(true);
      expect(n?.outputs).toEqual([]);
    }
    expect(byName.get('mm')?.branchOf).toBe('first');
    expect(byName.get('n_sigmoid')?.branchOf).toBe('nested');
    expect(byName.get('b3')?.branchOf).toBe('second');
    // Branch outputs write the If's outputs; the branch's "one" no longer clashes with the outer one.
    expect(byName.get('b3')?.outputs).toEqual(['y2']);
    expect(byName.get('inner_relu')?.outputs).toEqual(['y1']);
    expect(byName.get('n_sigmoid')?.outputs).toEqual(['n_out']);
    expect(unknownBranchNote(byName.get('first') ?? m.graph.nodes[0]!)).toBeNull();
    expect(unknownBranchNote(byName.get('second') ?? m.graph.nodes[0]!)).toMatch(
      /If "second": its condition is known only at run time; costed as its else_branch/,
    );
  });

  it('passes an outer tensor through an Identity when the branch has no node writing it', () => {
    const m = inlineBranches(model(), { dims: { N: 4 } });
    expect(names(m)).toEqual(['shape', 'n', 'is_one', 'first', 'first/output_0', 'second', 'b1', 'b2', 'b3']);
    const pass = m.graph.nodes.find((n) => n.name === 'first/output_0');
    expect(pass).toMatchObject({ opType: 'Identity', inputs: ['X'], outputs: ['y1'] });
  });

  it('changes nothing the second time, nor in a model without If', () => {
    const once = inlineBranches(model(), { dims: { N: 1 } });
    expect(inlineBranches(once, { dims: { N: 1 } })).toBe(once);
  });

  it('costs the branch nodes, not the If, and says which If was taken on faith', () => {
    const { workload } = importOnnxModel(model(), { name: 'branches', dims: { N: 1 } });
    const mm = workload.nodes.find((n) => n.name === 'mm');
    expect(mm).toMatchObject({ family: 'gemm', branchOf: 'first' });
    expect(workload.nodes.filter((n) => n.opType === 'If').every((n) => n.bytes === 0 && n.family === null)).toBe(true);
    expect(workload.warnings).toEqual([
      'If "second": its condition is known only at run time; costed as its else_branch (the larger branch)',
    ]);
  });
});
