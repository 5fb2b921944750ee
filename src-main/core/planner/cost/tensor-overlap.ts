/**
 * Tensor-parallel communication a training stack overlaps with its GEMMs (stacks/stack-rule.ts
 * TensorOverlapRule; Transformer Engine's userbuffers under Megatron-LM's --tp-comm-overlap). With
 * sequence parallelism each all-reduce of a block's output (time a) is an all-gather before a
 * column-parallel GEMM and a reduce-scatter after a row-parallel one, each c = a/2. A GEMM's time g
 * is its share of the block's forward FLOPs (TensorSplit.gemms) times the block's forward time
 * (dgrad and wgrad each as forward). Per dense block, what stays exposed:
 * - an all-gather by ring exchange (qkv and fc1 forward; the output gradient before proj and fc2
 *   dgrad): tp − 1 sends of c/(tp − 1), each beside one of the GEMM's tp chunks (the local chunk
 *   runs first): (tp − 1)·max(0, c/(tp − 1) − g/tp);
 * - a forward reduce-scatter pipelined in k splits (proj, fc2), the GEMM on SMs less commSms
 *   (slowed s = SMs / (SMs − commSms)): g·s/k + c/k + (k − 1)·max(g·s/k, c/k) − g;
 * - a backward reduce-scatter in bulk beside the wgrad GEMM (qkv, fc1), that GEMM slowed the same:
 *   max(g·s, c) − g.
 * A stack without overlap, or a replica on a device it is not turned on for, adds every collective
 * whole (stage-cost.ts). Pure.
 */
import type { StackRule } from '../stacks/stack-rule.js';
import type { BlockGemms, PlanProblem, TensorSplit } from '../types.js';

type ProblemOverlap = NonNullable<PlanProblem['tensorOverlap']>;

/** A device the overlap may be turned on for: its id, compute capability and SM count (null: unknown). */
export interface OverlapDevice {
  id: string;
  computeCapability: string | null;
  smCount: number | null;
}

/** The problem's overlap under the stack: the devices of its GPU generations with a known SM count; undefined: none. */
export function problemTensorOverlap(
  rule: Pick<StackRule, 'tensorOverlap'>,
  devices: readonly OverlapDevice[],
): ProblemOverlap | undefined {
  const o = rule.tensorOverlap;
  if (!o) return undefined;
  const smCount: Record<string, number> = {};
  for (const d of devices) {
    const major = Number((d.computeCapability ?? '0').split('.')[0]);
    if (major >= o.minComputeMajor && d.smCount !== null && d.smCount > o.commSms) smCount[d.id] = d.smCount;
  }
  return { pipelineSplits: o.pipelineSplits, commSms: o.commSms, smCount };
}

/** A replica's overlap: its GEMMs slowed SMs / (SMs − commSms) at its fewest SMs, and the splits; null when a member runs without. */
export function replicaOverlap(
  overlap: ProblemOverlap | undefined,
  ids: readonly string[],
): { slow: number; splits: number } | null {
  if (!overlap) return null;
  let least = Infinity;
  for (const id of ids) least = Math.min(least, overlap.smCount[id] ?? 0);
  return least > 0 && Number.isFinite(least)
    ? { slow: least / (least - overlap.commSms), splits: overlap.pipelineSplits }
    : null;
}

const ring = (c: number, g: number, tp: number): number => (tp - 1) * Math.max(0, c / (tp - 1) - g / tp);

const pipelined = (c: number, g: number, slow: number, k: number): number =>
  (g * slow) / k + c / k + (k - 1) * Math.max((g * slow) / k, c / k) - g;

const bulk = (c: number, g: number, slow: number): number => Math.max(g * slow, c) - g;

/**
 * A dense block's exposed tensor-parallel time (µs) forward and backward, for one all-reduce of
 * `allReduceUs` and the block's forward compute `forwardUs` on a replica of `tp` members.
 */
export function overlappedBlockUs(
  allReduceUs: number,
  forwardUs: number,
  gemms: BlockGemms,
  tp: number,
  { slow, splits }: { slow: number; splits: number },
): { forward: number; backward: number } {
  const c = allReduceUs / 2;
  const g = (share: number): number => share * forwardUs;
  return {
    forward:
      ring(c, g(gemms.attnIn), tp) +
      pipelined(c, g(gemms.attnOut), slow, splits) +
      ring(c, g(gemms.mlpIn), tp) +
      pipelined(c, g(gemms.mlpOut), slow, splits),
    backward:
      ring(c, g(gemms.attnOut), tp) +
      ring(c, g(gemms.mlpOut), tp) +
      bulk(c, g(gemms.attnIn), slow) +
      bulk(c, g(gemms.mlpIn), slow),
  };
}

/** A layer without tensor-parallel collectives. */
export const NO_COMM: Readonly<{ forward: number; backward: number }> = { forward: 0, backward: 0 };

/**
 * A split layer's tensor-parallel time (µs) forward and backward for one all-reduce of `allReduceUs`:
 * overlapped with its GEMMs where the replica's overlap and the layer's GEMM shares allow, else its
 * all-reduces whole (backward ones in training only).
 */
export function splitLayerCommUs(
  split: TensorSplit,
  allReduceUs: number,
  forwardUs: number,
  on: { tp: number; training: boolean; overlap: { slow: number; splits: number } | null },
): { forward: number; backward: number } {
  if (on.overlap && split.gemms) return overlappedBlockUs(allReduceUs, forwardUs, split.gemms, on.tp, on.overlap);
  return {
    forward: split.forwardAllReduces * allReduceUs,
    backward: on.training ? split.backwardAllReduces * allReduceUs : 0,
  };
}
