/**
 * The two FLOP tables agree: a kernel's FLOPs (kernels/cost.ts kernelFlops, what the profiler
 * labels a measurement with) and an ONNX node's (workload/node-cost-ops.ts ELEMENTWISE_FLOPS, what
 * a workload is priced with) give every elementwise op the same FLOPs per element.
 */
import { describe, expect, it } from 'vitest';
import { kernelFlops } from '../../../../src-main/core/kernels/cost.js';
import { KERNEL_OPS, OP_DIMS, OP_FAMILY, type KernelOp } from '../../../../src-main/core/kernels/types.js';
import { COST_RULES, type KnownTensor } from '../../../../src-main/core/workload/node-cost-ops.js';

const N = 1000;
const FP32 = 1;

/** The node cost rule's FLOPs and kernel for a lone `op` node over full fp32 tensors of N elements. */
function nodeFlops(op: KernelOp): { flops: number; kernel: KernelOp } | null {
  const rule = COST_RULES[op];
  if (!rule) return null;
  const t = (): KnownTensor => ({ dims: [N], dtype: FP32 });
  const r = rule({
    node: { opType: op, domain: '', name: op, inputs: ['a', 'b'], outputs: ['o'], attributes: new Map() },
    opset: 17,
    inputs: [t(), t()],
    outputs: [t()],
  });
  return { flops: r.flops, kernel: r.kernel.op };
}

const ELEMENTWISE = KERNEL_OPS.filter((op) => OP_FAMILY[op] === 'elementwise' && OP_DIMS[op].join() === 'n');

describe('the FLOP tables (kernels/cost.ts and workload/node-cost-ops.ts)', () => {
  it('covers every elementwise kernel op in both', () => {
    expect(ELEMENTWISE.length).toBeGreaterThan(10);
    for (const op of ELEMENTWISE) expect(nodeFlops(op), op).not.toBeNull();
  });

  it.each(ELEMENTWISE)('gives %s the same FLOPs per element', (op) => {
    const node = nodeFlops(op);
    expect(node?.kernel).toBe(op);
    expect(node?.flops).toBe(kernelFlops(op, { n: N }));
  });
});
