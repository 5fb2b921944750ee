import { describe, expect, it } from 'vitest';
import type { NodePrediction, WorkloadPrediction } from '../../../../src-main/core/workload/predict-workload.js';
import type { Workload } from '../../../../src-main/core/workload/types.js';
import { onUserGraph } from '../../../../src-main/services/predict/model-prediction-service.js';
import { bareNode } from '../../../helpers/workload-node.js';

const node = (index: number, opType: string, timeUs: number, how: NodePrediction['how']): NodePrediction => ({
  index,
  name: `x${index}`,
  opType,
  family: null,
  timeUs,
  lowUs: timeUs,
  highUs: timeUs,
  how,
  warning: null,
});

describe('onUserGraph', () => {
  it('tells a file node by the executed node that takes its time, not by whichever ran first', () => {
    const user: Workload = {
      name: 'm',
      source: 'onnx',
      bindings: {},
      nodes: [bareNode('conv', 'Conv')],
      layers: [{ index: 0, name: 'conv', nodes: [0], flops: 0, bytes: 0, params: 0 }] as Workload['layers'],
      paramBytes: 0,
      warnings: [],
    };
    // ORT ran the file's conv as a shape-only Reshape (free) and then the conv itself.
    const executed = {
      nodes: [node(0, 'Reshape', 0.5, 'free'), node(1, 'Conv', 40, 'predicted')],
      warnings: [],
    } as unknown as WorkloadPrediction;
    const told = onUserGraph(user, executed, [[0], [0]]);
    expect(told.nodes[0]).toMatchObject({ name: 'conv', how: 'predicted', timeUs: 40.5 });
  });
});
