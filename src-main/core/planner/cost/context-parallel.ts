/**
 * Context parallelism (Megatron-LM's --context-parallel-size): each sample's sequence split over
 * the c GPUs of a context-parallel group, attention as ring attention with Megatron's causal load
 * balance (the sequence in 2c chunks, rank j holding chunks j and 2c − 1 − j, so every rank does
 * 1/c of the causal attention). Pure.
 *
 * - One rank computes, keeps and sends what s/c tokens of a sample need: the problem is rewritten
 *   so that a "sample" is one rank's slice (contextProblem): every per-sample time, activation and
 *   message over c, c times the samples. A stage of tp·c·dp devices is then tp-wide replicas, c·dp
 *   of them, and its gradient all-reduce runs over the dp·c replicas, as Megatron's over DP x CP.
 * - Attention takes c steps. Each computes the rank's queries against one rank's keys and values
 *   (a = 1/c of the rank's attention, the layer's attention core) while those K and V go on to the
 *   next rank of the ring: a message of k = 2·(s/c)·kv_heads·head_dim·bytes a sample (over the
 *   tensor-parallel members, each its heads), every rank at once, so the ring's slowest link m sets
 *   the step. The first step needs no message:
 *     forward = a + (c − 1)·max(a, m(k)), exposed beyond compute (c − 1)·max(0, m(k) − a);
 *     backward: 2a a step against the keys, values and their gradients, m(2k).
 *   Recomputation (full or selective) runs the forward ring again. A layer without an attention
 *   core time hides nothing behind it.
 */
import type { PlannerContext } from '../problem/problem.js';
import { timesKey } from '../problem/time-keys.js';
import type { PlanLayer, PlanProblem } from '../types.js';

const over = (r: Record<string, number>, c: number): Record<string, number> =>
  Object.fromEntries(Object.entries(r).map(([id, v]) => [id, v / c]));

function sliceLayer(l: PlanLayer, c: number): PlanLayer {
  const f = l.fullRecompute;
  return {
    ...l,
    forwardUs: over(l.forwardUs, c),
    backwardUs: over(l.backwardUs, c),
    outBytesPerSample: l.outBytesPerSample / c,
    activationBytesPerSample: l.activationBytesPerSample / c,
    ...(l.residentBytesPerSample !== undefined ? { residentBytesPerSample: l.residentBytesPerSample / c } : {}),
    ...(l.selective
      ? {
          selective: {
            activationBytesPerSample: l.selective.activationBytesPerSample / c,
            recomputeUs: over(l.selective.recomputeUs, c),
          },
        }
      : {}),
    ...(f && f !== 'never'
      ? {
          fullRecompute: { keptBytesPerSample: f.keptBytesPerSample / c, peakBytesPerSample: f.peakBytesPerSample / c },
        }
      : {}),
    ...(l.recomputePeakBytesPerSample !== undefined
      ? { recomputePeakBytesPerSample: l.recomputePeakBytesPerSample / c }
      : {}),
    ...(l.kvBytesPerSample !== undefined ? { kvBytesPerSample: l.kvBytesPerSample / c } : {}),
  };
}

/** The problem as one rank of a context-parallel group of c sees it: samples of s/c tokens, c times as many. */
export function contextProblem(problem: PlanProblem, c: number): PlanProblem {
  if (c <= 1) return problem;
  return {
    ...problem,
    layers: problem.layers.map((l) => sliceLayer(l, c)),
    batch: problem.batch * c,
    ...(problem.sequence !== undefined ? { sequence: problem.sequence / c } : {}),
  };
}

/** One ring step: every member sends `bytes` to the next at once; the slowest link sets it (µs). */
function ringStepUs(ctx: PlannerContext, ring: readonly string[], bytes: number): number {
  let worst = 0;
  for (let i = 0; i < ring.length; i++) {
    const us = ctx.cost.linkUs(ring[i] as string, ring[(i + 1) % ring.length] as string, bytes);
    worst = Math.max(worst, Number.isNaN(us) ? Infinity : us);
  }
  return worst;
}

/** The exposed ring time of layers [from, to) on one ring, for `samples` slices a rank (µs; the file comment). */
function ringUs(ctx: PlannerContext, ring: readonly string[], from: number, to: number, samples: number, tp: number) {
  const c = ring.length;
  const again = ctx.problem.recompute !== undefined ? 2 : 1;
  let us = 0;
  for (let l = from; l < to; l++) {
    const layer = ctx.problem.layers[l];
    if (!layer?.kvBytesPerSample) continue;
    const bytes = (samples * layer.kvBytesPerSample) / tp;
    const core = layer.selective?.recomputeUs;
    const a = core ? (samples * Math.min(...ring.map((id) => core[timesKey(ctx.problem, id)] ?? 0))) / tp / c : 0;
    const forward = (c - 1) * Math.max(0, ringStepUs(ctx, ring, bytes) - a);
    const backward = (c - 1) * Math.max(0, ringStepUs(ctx, ring, 2 * bytes) - 2 * a);
    us += again * forward + backward;
  }
  return us;
}

/**
 * The ring attention a stage's context-parallel groups add to one microbatch beyond their compute
 * (µs), training: the slowest ring. The stage's devices are dp groups of c replicas of tp
 * (Megatron's order: tensor, then context, then data parallel); member j of the replicas of one
 * group forms a ring. `samples`: the slices one replica computes a microbatch.
 */
export function ringAttentionUs(
  ctx: PlannerContext,
  devices: readonly string[],
  range: { from: number; to: number },
  samples: number,
  tp: number,
  c: number,
): number {
  if (c < 2 || ctx.problem.mode !== 'training' || samples <= 0) return 0;
  const width = tp * c;
  let worst = 0;
  for (let g = 0; g + width <= devices.length; g += width) {
    for (let j = 0; j < tp; j++) {
      const ring = Array.from({ length: c }, (_, r) => devices[g + r * tp + j] as string);
      worst = Math.max(worst, ringUs(ctx, ring, range.from, range.to, samples, tp));
    }
  }
  return worst;
}
