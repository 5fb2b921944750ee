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

function plus(a: Times, b: Times): Times {
  const out: Times = {};
  for (const id in a) out[id] = (a[id] as number) + (b[id] ?? 0);
  return out;
}

type Times = Record<string, number>;

/** Each recomputed layer's backward times as two records: its own backward's, and what it runs again. */
const backwardParts = new WeakMap<object, readonly [Times, Times]>();

/**
 * A recomputed layer's backward times as [backward, run again] (each device's sum is its time,
 * a device missing from the first has none); undefined for a layer recomputation did not make.
 * The cost tables and the checks read the parts, so a cluster's 16,384-GPU sum is never built.
 */
export function recomputedBackwardParts(layer: object): readonly [Times, Times] | undefined {
  return backwardParts.get(layer);
}

/** The layer with `changes` and backward times backward + again, the sum built when first read. */
function withRecompute(l: PlanLayer, changes: Partial<PlanLayer>, again: Times): PlanLayer {
  const own = l.backwardUs;
  const out: PlanLayer = { ...l, ...changes };
  let sum: Times | undefined;
  Object.defineProperty(out, 'backwardUs', {
    enumerable: true,
    configurable: true,
    get: () => (sum ??= plus(own, again)),
  });
  backwardParts.set(out, [own, again]);
  return out;
}

function recomputeLayer(l: PlanLayer, kind: Recompute): PlanLayer {
  if (kind === 'full') {
    const f = l.fullRecompute;
    if (f === 'never') return l;
    return withRecompute(
      l,
      {
        activationBytesPerSample: f ? f.keptBytesPerSample : Math.min(l.activationBytesPerSample, l.outBytesPerSample),
        ...(f ? { recomputePeakBytesPerSample: f.peakBytesPerSample } : {}),
      },
      l.forwardUs,
    );
  }
  if (!l.selective) return l;
  return withRecompute(
    l,
    {
      activationBytesPerSample: l.selective.activationBytesPerSample,
      ...(l.selective.peakBytesPerSample !== undefined
        ? { recomputePeakBytesPerSample: l.selective.peakBytesPerSample }
        : {}),
    },
    l.selective.recomputeUs,
  );
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
