/**
 * The micro-kernel of a costed node: its op at its shape, as the profiler can time it alone.
 * Keys that say how ORT runs the node (`nchwc`, a fused `sum`, a non-4-D `reorder`) are not
 * kernel dims and are dropped: a lone conv runs in NCHWc by itself, and a conv with a fused
 * addend is timed as the conv. Reorders are timed inside other kernels (TIMED_INSIDE_OPS), and a
 * reorder priced as a transpose has no kernel of its own.
 * Null for ops no kernel builds and shapes a kernel cannot take. Pure.
 */
import type { Dtype } from '../domain/measurement.js';
import { makeKernel } from './cost.js';
import {
  KERNEL_OPS,
  OP_DIMS,
  OP_DTYPES,
  OP_OPTIONAL_DIMS,
  TIMED_INSIDE_OPS,
  type KernelOp,
  type KernelSpec,
} from './types.js';

const isKernelOp = (op: string): op is KernelOp => (KERNEL_OPS as readonly string[]).includes(op);

export function kernelOfNode(kernel: { op: string; shape: Record<string, number> }, dtype: Dtype): KernelSpec | null {
  const { op } = kernel;
  if (!isKernelOp(op) || TIMED_INSIDE_OPS.has(op) || !OP_DTYPES[op].includes(dtype)) return null;
  // A reorder that is not 4-D is priced as a transpose; timing a Transpose would not time it.
  if (kernel.shape['reorder']) return null;
  const dims = new Set([...OP_DIMS[op], ...Object.keys(OP_OPTIONAL_DIMS[op] ?? {})]);
  const shape = Object.fromEntries(Object.entries(kernel.shape).filter(([k]) => dims.has(k)));
  try {
    return makeKernel(op, dtype, shape);
  } catch {
    return null;
  }
}
