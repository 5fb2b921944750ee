/**
 * Activation recomputation as a planning option (training), after Korthikanti et al. 2022,
 * "Reducing Activation Recomputation in Large Transformer Models". Pure.
 *
 * - full: a layer keeps only its input for backward (its output-sized checkpoint) and runs its
 *   forward again during backward: backward time + forward time. A layer's fullRecompute states
 *   otherwise (fine-tuning stacks): what it keeps, its peak while recomputed, or 'never'.
 * - selective: a transformer block keeps everything but the attention core's s² terms (scores,
 *   softmax, dropout mask) and recomputes that core: backward time + the core's forward time.
 *   Layers without that breakdown (not transformer blocks) stay as they are.
 */
import type { PlanLayer, PlanProblem, Recompute } from '../types.js';

export const RECOMPUTE_OPTIONS: readonly Recompute[] = ['selective', 'full'];

function plus(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id in a) out[id] = (a[id] as number) + (b[id] ?? 0);
  return out;
}

function recomputeLayer(l: PlanLayer, kind: Recompute): PlanLayer {
  if (kind === 'full') {
    const f = l.fullRecompute;
    if (f === 'never') return l;
    return {
      ...l,
      activationBytesPerSample: f ? f.keptBytesPerSample : Math.min(l.activationBytesPerSample, l.outBytesPerSample),
      backwardUs: plus(l.backwardUs, l.forwardUs),
      ...(f ? { recomputePeakBytesPerSample: f.peakBytesPerSample } : {}),
    };
  }
  if (!l.selective) return l;
  return {
    ...l,
    activationBytesPerSample: l.selective.activationBytesPerSample,
    backwardUs: plus(l.backwardUs, l.selective.recomputeUs),
    ...(l.selective.peakBytesPerSample !== undefined
      ? { recomputePeakBytesPerSample: l.selective.peakBytesPerSample }
      : {}),
  };
}

/** The problem with `kind` recomputation applied; null where it does not apply (inference, or no transformer block for selective). */
/** Each layer list's recomputed lists, by kind: a search's ZeRO variants share one (and its cost tables' prefixes). */
const recomputed = new WeakMap<readonly PlanLayer[], Map<Recompute, PlanLayer[]>>();

export function recomputeProblem(problem: PlanProblem, kind: Recompute): PlanProblem | null {
  if (problem.mode !== 'training') return null;
  if (kind === 'selective' && !problem.layers.some((l) => l.selective)) return null;
  let byKind = recomputed.get(problem.layers);
  if (!byKind) recomputed.set(problem.layers, (byKind = new Map()));
  const layers = byKind.get(kind) ?? problem.layers.map((l) => recomputeLayer(l, kind));
  byKind.set(kind, layers);
  return { ...problem, layers, recompute: kind };
}
