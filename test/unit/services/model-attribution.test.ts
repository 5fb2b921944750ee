import { describe, expect, it } from 'vitest';
import { exclusiveOfBranches } from '../../../src-main/services/model-attribution.js';
import type { WorkloadNode } from '../../../src-main/core/workload/types.js';
import { bareNode } from '../../helpers/workload-node.js';

const n = (name: string, branchOf?: string): WorkloadNode =>
  bareNode(name, name.startsWith('if') ? 'If' : 'Relu', branchOf ? { branchOf } : {});

describe('exclusiveOfBranches', () => {
  it("takes each If's branch nodes off its trace time, run by run, nested Ifs one level at a time", () => {
    // A trace lists an If with the time of everything its branch ran, and the branch's nodes again.
    const traced = { if1: [30, 40], a: [5, 6], if2: [12, 14], b: [4, 4], c: [2, 3], top: [7, 7] };
    const nodes = [n('top'), n('if1'), n('a', 'if1'), n('if2', 'if1'), n('b', 'if2'), n('c', 'if2')];
    expect(exclusiveOfBranches(traced, nodes)).toEqual({
      if1: [13, 20],
      a: [5, 6],
      if2: [6, 7],
      b: [4, 4],
      c: [2, 3],
      top: [7, 7],
    });
  });

  it('never goes below zero, and leaves traces of graphs without branches alone', () => {
    expect(exclusiveOfBranches({ if1: [3], a: [5] }, [n('if1'), n('a', 'if1')])).toEqual({ if1: [0], a: [5] });
    const plain = { a: [1, 2] };
    expect(exclusiveOfBranches(plain, [n('a')])).toEqual(plain);
  });
});
