import { describe, expect, it } from 'vitest';
import { attributeNodes, exclusiveOfBranches, traceGapUs } from '../../../../src-main/services/measure/model-attribution.js';
import type { WorkloadNode } from '../../../../src-main/core/workload/types.js';
import { bareNode } from '../../../helpers/workload-node.js';

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

  it("takes the profiler's gap after each branch node that ran off its If as well", () => {
    // if1 spans a, if2 and the gaps after them; if2 spans b and c (c did not run in the second run).
    const traced = { if1: [40, 40], a: [5, 5], if2: [20, 14], b: [4, 4], c: [2, 0] };
    const nodes = [n('if1'), n('a', 'if1'), n('if2', 'if1'), n('b', 'if2'), n('c', 'if2')];
    expect(exclusiveOfBranches(traced, nodes, 3)).toEqual({
      if1: [40 - 5 - 3 - 20 - 3, 40 - 5 - 3 - 14 - 3],
      a: [5, 5],
      if2: [20 - 4 - 3 - 2 - 3, 14 - 4 - 3],
      b: [4, 4],
      c: [2, 0],
    });
  });
});

describe('traceGapUs', () => {
  it("is the profiler's cost per node in a run less the part inside the node's event, 0 when unknown", () => {
    expect(traceGapUs({ runUs: 9, profilerNodeUs: 2, profilerRunNodeUs: 5.5 })).toBe(3.5);
    expect(traceGapUs({ runUs: 9, profilerNodeUs: 6, profilerRunNodeUs: 5 })).toBe(0);
    expect(traceGapUs({ runUs: 9, profilerNodeUs: 2 })).toBe(0);
    expect(traceGapUs({ runUs: 9, profilerNodeUs: null, profilerRunNodeUs: 5 })).toBe(0);
    expect(traceGapUs(null)).toBe(0);
  });
});

describe('attributeNodes', () => {
  const outcome = (
    byNodeUs: Record<string, number[]>,
    nodeOps: Record<string, string>,
    wallUs: number[] = [100, 100, 100],
  ) => ({
    id: 1,
    ok: true as const,
    wallUs,
    tracedWallUs: [150, 150, 150],
    modelRunUs: [140, 140, 140],
    kernelUs: [100, 100, 100],
    byNodeUs,
    nodeOps,
    providers: ['CPUExecutionProvider'],
    outputShapes: {},
  });

  it("names the trace's nodes by their outputs where ORT named them otherwise than the graph given", () => {
    // ORT names the reorders it inserts differently in each session: the profiled session
    // called the big map's reorder ReorderOutput_token_2, which is the small one's name here.
    const out = (name: string): WorkloadNode['outputs'][number] => ({ name, dims: [], dtype: 'fp32' });
    const nodes = [
      bareNode('ReorderOutput_token_1', 'ReorderOutput', { outputs: [out('big')] }),
      bareNode('ReorderOutput_token_2', 'ReorderOutput', { outputs: [out('small')] }),
      bareNode('conv', 'Conv', { outputs: [out('c')] }),
    ];
    const traced = { ReorderOutput_token_2: [900, 900, 900], ReorderOutput_token_1: [1, 1, 1], conv: [50, 50, 50] };
    const ops = { ReorderOutput_token_1: 'ReorderOutput', ReorderOutput_token_2: 'ReorderOutput', conv: 'Conv' };
    const swapped = {
      ...outcome(traced, ops, [2000, 2000, 2000]),
      nodeOutputs: { ReorderOutput_token_2: 'big', ReorderOutput_token_1: 'small', conv: 'c' },
    };
    const got = Object.fromEntries(attributeNodes(swapped, nodes, null).nodes.map((x) => [x.name, x.measuredUs]));
    expect(got).toEqual({ ReorderOutput_token_1: 900, ReorderOutput_token_2: 1, conv: 50 });
    // Without outputs reported (an older runner), names are all there is.
    const byName = Object.fromEntries(
      attributeNodes(outcome(traced, ops, [2000, 2000, 2000]), nodes, null).nodes.map((x) => [x.name, x.measuredUs]),
    );
    expect(byName).toEqual({ ReorderOutput_token_1: 1, ReorderOutput_token_2: 900, conv: 50 });
  });

  it('gives an If the median of every run it ran in, the runs its branch took all of included', () => {
    // if1 ran in all four runs; its branch node a took all of its time in three of them.
    const traced = { if1: [10, 10, 10, 30], a: [12, 11, 10, 10], b: [0, 0, 0, 50] };
    const nodes = [n('if1'), n('a', 'if1'), n('b')];
    const got = attributeNodes(outcome(traced, { if1: 'If', a: 'Relu', b: 'Relu' }), nodes, null);
    const byName = Object.fromEntries(got.nodes.map((x) => [x.name, x]));
    const scale = (byName['a']?.samples[0] ?? 0) / 12;
    expect(byName['if1']?.measuredUs).toBe(0);
    expect(byName['if1']?.samples).toEqual([0, 0, 0, 20 * scale]);
    // b ran once: its median is that run's, not the zeros of the runs it did not run in.
    expect(byName['b']?.measuredUs).toBeCloseTo(50 * scale, 9);
  });
  describe('scaling', () => {
    const relus = { a: 'Relu', b: 'Relu' };
    const nodes = [n('a'), n('b')];
    const overhead = { runUs: 10, profilerNodeUs: 1 };

    it('scales traced times down to the untraced end to end less the per-run cost', () => {
      // Traced 31 + 21, 1 µs of ORT trace each: 30 + 20 against 60 - 10 = 50 µs untraced.
      const traced = { a: [31, 31, 31], b: [21, 21, 21] };
      const got = attributeNodes(outcome(traced, relus, [60, 60, 60]), nodes, overhead);
      expect(got.nodes.map((x) => x.measuredUs)).toEqual([30, 20]);
      const profiledSlower = attributeNodes(outcome(traced, relus, [35, 35, 35]), nodes, overhead);
      expect(profiledSlower.nodes.map((x) => x.measuredUs)).toEqual([15, 10]);
    });

    it('never scales them up: an untraced end to end beyond the nodes is time outside them', () => {
      // A one-node model whose outputs the binding copied in a slow phase: 250 µs from Node, 35 in ORT.
      const traced = { a: [36, 36, 36], b: [0, 0, 0] };
      const got = attributeNodes(outcome(traced, relus, [250, 251, 249]), nodes, overhead);
      expect(got.endToEndUs).toBe(250);
      expect(got.nodes.find((x) => x.name === 'a')?.measuredUs).toBe(35);
    });
  });
});
