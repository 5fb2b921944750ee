/**
 * Adaptive refinement: more samples where the measured curve bends. For each op and
 * dtype, kernels are ordered by work; where achieved throughput jumps between two
 * neighbours (a cache edge, a tile or wave step), the shapes around the larger one are
 * added. Pure.
 */
import { refineAround } from '../kernels/refine.js';
import type { KernelSpec } from '../kernels/types.js';
import { groupBy } from '../util/group-by.js';

export interface MeasuredKernel {
  spec: KernelSpec;
  medianUs: number;
}

/** Throughput of a kernel: FLOP/s for compute ops, byte/s for the rest. */
function throughput(k: MeasuredKernel): number {
  const work = k.spec.flops > 0 && ['gemm', 'conv', 'attention'].includes(k.spec.family) ? k.spec.flops : k.spec.bytes;
  return work / k.medianUs;
}

/**
 * Up to `limit` new kernels around the sharpest bends (throughput ratio between
 * neighbours above `minJump`), none already in `known`.
 */
export function planRefinement(
  measured: readonly MeasuredKernel[],
  known: ReadonlySet<string>,
  limit: number,
  minJump = 1.3,
): KernelSpec[] {
  // Chains of distinct weights (the decode model's streaming GEMVs) are no point on a kernel's curve.
  const curves = measured.filter((m) => !m.spec.shape['distinct']);
  const groups = groupBy(curves, (m) => `${m.spec.op}|${m.spec.dtype}`);
  const bends: { jump: number; at: KernelSpec }[] = [];
  for (const g of groups.values()) {
    const byWork = [...g].sort((a, b) => a.spec.flops + a.spec.bytes - (b.spec.flops + b.spec.bytes));
    for (let i = 1; i < byWork.length; i++) {
      const a = throughput(byWork[i - 1] as MeasuredKernel);
      const b = throughput(byWork[i] as MeasuredKernel);
      const jump = Math.max(a, b) / Math.min(a, b);
      if (Number.isFinite(jump) && jump >= minJump) bends.push({ jump, at: (byWork[i] as MeasuredKernel).spec });
    }
  }
  bends.sort((x, y) => y.jump - x.jump);
  const out: KernelSpec[] = [];
  const taken = new Set(known);
  for (const bend of bends) {
    for (const k of refineAround(bend.at, 1.5)) {
      if (out.length >= limit) return out;
      if (taken.has(k.id)) continue;
      taken.add(k.id);
      out.push(k);
    }
  }
  return out;
}
