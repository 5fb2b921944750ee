/**
 * Expert parallelism (Megatron-LM's --expert-model-parallel-size e with the experts whole,
 * --expert-tensor-parallel-size 1): each mixture-of-experts block's E experts spread over e GPUs,
 * E/e on each. e is a multiple of the tensor-parallel degree t; its group is e/t consecutive
 * replicas of a stage, all their members, and with sequence parallelism each member routes 1/t of
 * its replica's tokens. Pure.
 *
 * - Time, per MoE block and microbatch: two all-to-alls forward (dispatch, combine) and two
 *   backward, each of the bytes a GPU routes, tokens x topK x hidden x bytes (the block's output
 *   of its samples x topK / t); recomputation runs the forward's again. The tensor-parallel group
 *   keeps one all-reduce each way for attention (expertProblem), where a plan without ep counts
 *   (1 + topK) all-reduces over the group for the experts' traffic (search/tensor-split.ts).
 * - An all-to-all of S bytes a GPU: each member sends S/e to every other at once; the peers on
 *   its node share its NVLink, those on other nodes its rails, so the time is the slower of the
 *   two sums of bandwidth terms plus the largest latency; the slowest member sets it.
 * - Memory: a GPU holds E/e experts' weights, gradients and optimizer state (expertProblem), and
 *   the optimizer state of experts shards over the expert-data-parallel ranks, t·R/e of a stage's
 *   R replicas, not over R (expertStateBytes, ZeRO-1 and up).
 * - Not priced apart: the expert gradients' all-reduce over those t·R/e ranks; it is counted with
 *   the dense gradients' over the R replicas (the same bytes a GPU, a ring of more members).
 */
import { parameterStateBytes, type MemorySettings } from '../memory/memory.js';
import type { PlannerContext } from '../problem/problem.js';
import type { PlanDevice, PlanLayer, PlanProblem } from '../types.js';

/** All-to-alls a MoE block runs a microbatch: dispatch and combine, forward and backward. */
const ALL_TO_ALLS = { forward: 2, backward: 2 } as const;

function spreadLayer(l: PlanLayer, tp: number, ep: number): PlanLayer {
  if (!l.experts) return l;
  // The tensor split divides a block's params by tp: keep expertParams·tp/ep of them, so a GPU holds expertParams/ep.
  const params = l.params - l.experts.params * (1 - tp / ep);
  return {
    ...l,
    params,
    ...(l.tensor ? { tensor: { ...l.tensor, forwardAllReduces: 1, backwardAllReduces: 1 } } : {}),
  };
}

/** The problem with each MoE block's experts spread over ep GPUs (ep a multiple of tp). */
export function expertProblem(problem: PlanProblem, tp: number, ep: number): PlanProblem {
  return { ...problem, layers: problem.layers.map((l) => spreadLayer(l, tp, ep)) };
}

/** Each device list's machines by device id, built once (the searches price many groups). */
const machines = new WeakMap<readonly PlanDevice[], Map<string, string>>();

function machineOf(devices: readonly PlanDevice[]): Map<string, string> {
  let m = machines.get(devices);
  if (!m) {
    m = new Map(devices.map((d) => [d.id, d.machine]));
    machines.set(devices, m);
  }
  return m;
}

/** One all-to-all of `bytes` a member over `group` (µs; the file comment): the slowest member. */
export function allToAllUs(ctx: PlannerContext, group: readonly string[], bytes: number): number {
  const e = group.length;
  if (e < 2 || bytes <= 0) return 0;
  const machine = machineOf(ctx.problem.devices);
  const share = bytes / e;
  let worst = 0;
  for (const a of group) {
    let near = 0;
    let far = 0;
    let alpha = 0;
    for (const b of group) {
      if (b === a) continue;
      const l = ctx.cost.link?.(a, b);
      if (l === null) return Infinity;
      // A cost model without an alpha-beta view: its messages one after another.
      if (l === undefined) {
        near += ctx.cost.linkUs(a, b, share);
        continue;
      }
      const t = share / (l.gbps * 1e3);
      if (machine.get(a) === machine.get(b)) near += t;
      else far += t;
      alpha = Math.max(alpha, l.alphaUs);
    }
    worst = Math.max(worst, Math.max(near, far) + alpha);
  }
  return worst;
}

/**
 * The all-to-alls of layers [from, to) a microbatch on a stage (µs): per MoE block, the slowest
 * of the stage's expert groups (consecutive runs of ep devices). `samples`: one replica's.
 */
export function expertAllToAllUs(
  ctx: PlannerContext,
  devices: readonly string[],
  range: { from: number; to: number },
  samples: number,
  tp: number,
  ep: number,
): number {
  if (ep < 2 || samples <= 0) return 0;
  const training = ctx.problem.mode === 'training';
  const count =
    ALL_TO_ALLS.forward * (training && ctx.problem.recompute !== undefined ? 2 : 1) +
    (training ? ALL_TO_ALLS.backward : 0);
  const byBytes = new Map<number, number>();
  let us = 0;
  for (let l = range.from; l < range.to; l++) {
    const layer = ctx.problem.layers[l];
    if (!layer?.experts) continue;
    const bytes = (samples * layer.outBytesPerSample * layer.experts.topK) / tp;
    let one = byBytes.get(bytes);
    if (one === undefined) {
      one = 0;
      for (let g = 0; g + ep <= devices.length; g += ep)
        one = Math.max(one, allToAllUs(ctx, devices.slice(g, g + ep), bytes));
      byBytes.set(bytes, one);
    }
    us += count * one;
  }
  return us;
}

/**
 * What the experts' optimizer state adds to a GPU's parameter bytes when it shards over the
 * expert-data-parallel ranks (tp·replicas/ep) rather than the stage's replicas: ZeRO-1 and up
 * shard it over fewer ranks (bytes; 0 for ZeRO-0 or ep = tp).
 */
export function expertStateBytes(
  layers: readonly PlanLayer[],
  range: { from: number; to: number },
  shape: { replicas: number; tp: number; ep: number },
  s: MemorySettings,
): number {
  const { replicas, tp, ep } = shape;
  if (ep <= 1 || s.mode !== 'training') return 0;
  let expertParams = 0;
  for (let l = range.from; l < range.to; l++) expertParams += layers[l]?.experts?.params ?? 0;
  const held = expertParams / ep;
  const expertReplicas = Math.max(1, (tp * replicas) / ep);
  return parameterStateBytes(held, expertReplicas, s) - parameterStateBytes(held, replicas, s);
}
