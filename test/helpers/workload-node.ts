import type { WorkloadNode } from '../../src-main/core/workload/types.js';

/** A workload node with no kernel, tensors or cost, for tests; `extra` sets what a test needs. */
export function bareNode(name: string, opType: string, extra: Partial<WorkloadNode> = {}): WorkloadNode {
  return {
    name,
    opType,
    family: null,
    kernel: null,
    dtype: 'fp32',
    inputs: [],
    outputs: [],
    flops: 0,
    bytes: 0,
    params: 0,
    activationBytes: 0,
    ...extra,
  };
}
