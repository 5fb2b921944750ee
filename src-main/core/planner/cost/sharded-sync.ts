/** ZeRO-3 / FSDP's collectives that compute does not hide, and hybrid sharding's groups. Pure. */
import type { StackRule } from '../stacks/stack-rule.js';
import type { CostModel } from './cost-model.js';
import type { OverlapDevice } from './tensor-overlap.js';
import type { PlanProblem } from '../types.js';

/**
 * The oldest compute capability whose GEMMs are persistent: CUTLASS 3.x's Hopper (sm90) and Blackwell
 * kernels launch one CTA per SM that loops over the output tiles (its "persistent" tile schedulers), so
 * a GEMM holds every SM until it ends; Ampere's launch a CTA per tile, freeing SMs as tiles retire.
 */
const PERSISTENT_GEMM_MIN_MAJOR = 9;

/**
 * The devices whose ZeRO-3 collectives queue behind the GEMMs: the stack issues them (and FSDP1 its
 * casts before the all-gather) on default-priority streams, and the GPU's GEMMs are persistent. An NCCL
 * CTA takes an SM to itself (NVIDIA/nccl#689, the maintainer: "NCCL CTAs won't share an SM with compute
 * kernels"), so a collective issued while a GEMM runs waits for it to end (NVIDIA/nccl#1431), and the
 * compute stream's next kernels, already queued at the same priority, take the SMs first.
 */
export function queuedGatherDevices(
  rule: Pick<StackRule, 'gatherStream'>,
  devices: readonly OverlapDevice[],
): NonNullable<PlanProblem['queuedGathers']> | undefined {
  const { priority, hybrid = priority } = rule.gatherStream;
  if (priority !== 'default' && hybrid !== 'default') return undefined;
  const ids = devices
    .filter((d) => Number((d.computeCapability ?? '0').split('.')[0]) >= PERSISTENT_GEMM_MIN_MAJOR)
    .map((d) => d.id);
  return ids.length > 0 ? { devices: ids, sharded: priority === 'default', hybrid: hybrid === 'default' } : undefined;
}

/** Whether a shard group of `ids` runs its collectives between the GEMMs (queuedGatherDevices), as `problem` shards. */
export function gathersQueued(
  problem: Pick<PlanProblem, 'queuedGathers' | 'shardGroup'>,
  ids: readonly string[],
): boolean {
  const q = problem.queuedGathers;
  if (!q || !(problem.shardGroup === undefined ? q.sharded : q.hybrid)) return false;
  return q.devices.some((id) => ids.includes(id));
}

/**
 * ZeRO-3 / FSDP FULL_SHARD: the collectives of one microbatch that compute does not hide, per
 * layer l = 0..k−1 of a stage (stage-cost.ts's gradientSyncUs).
 *
 * g_l: the all-gather of layer l's weights (before its forward, and again before its backward);
 * r_l: the reduce-scatter of its gradients after its backward; f_l, b_l: its forward and backward
 * compute on the replica with the fewest samples. The next layer's collectives are prefetched
 * behind this layer's compute, so only what exceeds it is exposed:
 *   forward  = g_0 + Σ_{l=1}^{k−1} max(0, g_l − f_{l−1})
 *   backward = g_{k−1} + Σ_{l=0}^{k−1} max(0, [l>0]·g_{l−1} + [l<k−1]·r_{l+1} − b_l) + r_0
 * Hybrid sharding (HSDP): g_l and r_l run inside a shard group, and r_l is followed by the
 * all-reduce of the group's gradient shard (1/group of the bytes) across the groups, on the same
 * stream (FSDP's HYBRID_SHARD), so r_l counts both.
 * `queued` (queuedGatherDevices): the collectives run between the GEMMs, not beside them, and none is
 * hidden: Σ_l (2·g_l + r_l).
 */
export function shardedExposedUs(
  gather: readonly number[],
  scatter: readonly number[],
  forward: readonly number[],
  backward: readonly number[],
  queued = false,
): number {
  const k = gather.length;
  const at = (a: readonly number[], i: number): number => (i >= 0 && i < k ? (a[i] as number) : 0);
  if (queued) return gather.reduce((t, g, i) => t + 2 * g + at(scatter, i), 0);
  let exposed = at(gather, 0);
  for (let i = 1; i < k; i++) exposed += Math.max(0, at(gather, i) - at(forward, i - 1));
  exposed += at(gather, k - 1) + at(scatter, 0);
  for (let i = 0; i < k; i++) {
    const prefetched = at(gather, i - 1) + (i < k - 1 ? at(scatter, i + 1) : 0);
    exposed += Math.max(0, prefetched - at(backward, i));
  }
  return exposed;
}

/**
 * Hybrid sharding of one shard ring (the devices holding one tensor-parallel shard, in the stage's
 * order): shard groups of `group` consecutive devices, and the replica groups across them (the
 * i-th device of every shard group). `group` absent, or the whole ring: one shard group, no replicas.
 */
export function hybridGroups(
  ring: readonly string[],
  group: number | undefined,
): { shards: string[][]; replicas: string[][] } {
  if (group === undefined || group >= ring.length || ring.length % group !== 0)
    return { shards: [[...ring]], replicas: [] };
  const shards = Array.from({ length: ring.length / group }, (_, s) => ring.slice(s * group, (s + 1) * group));
  const replicas = Array.from({ length: group }, (_, i) => shards.map((g) => g[i] as string));
  return { shards, replicas };
}

/** One device list of each all-reduce route among `lists` (lists of one route cost the same: CostModel.allReduceKey). */
export function distinctRoutes(cost: Pick<CostModel, 'allReduceKey'>, lists: readonly string[][]): string[][] {
  const seen = new Set<string>();
  return lists.filter((ids) => {
    const key = cost.allReduceKey?.(ids) ?? null;
    if (key !== null && seen.has(key)) return false;
    if (key !== null) seen.add(key);
    return true;
  });
}
