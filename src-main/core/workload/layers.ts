/**
 * Groups a workload's nodes (in graph order) into layers: the units a pipeline planner may cut
 * between. Pure.
 *
 * The rule: walking in order, a cut after node i is a candidate when the number of activation
 * tensors live across it (produced at or before i, read after it; weights and folded constants
 * excluded) is at most 1, or the fewest among the cuts within WINDOW compute nodes (conv, gemm,
 * attention) of it: a residual block is not cut inside when its ends carry one tensor, while a
 * U-Net whose skip connections keep 3 tensors alive everywhere is still cut between its convs.
 * A layer is closed at the last candidate before the next compute node (so a Conv's
 * BatchNorm and Relu stay with it), and only once it holds a compute node. Tensors live
 * across a large share of the model (an attention mask read by every block, an encoder output
 * read by every decoder block) would make every cut look equally bad, so they are not counted
 * (they still cross: they are listed in outTensors). Nodes after the last cut join the last
 * layer, whose outTensors are the graph's outputs.
 *
 * backwardFlops = 2 x the forward FLOPs of the layer's compute nodes (a GEMM's or conv's
 * backward is two of its size: dX and dW); other nodes' backward work is not counted.
 */
import type { WorkloadLayer, WorkloadNode } from './types.js';
import { COMPUTE_FAMILIES } from '../kernels/types.js';

const BACKWARD_FACTOR = 2;
/** A tensor live across at least this many compute nodes (and this share of them) counts as a side input. */
const SIDE_MIN_COMPUTE = 8;
const SIDE_SHARE = 0.25;
/** Cuts compete with the cuts up to this many compute nodes before and after them. */
const WINDOW = 8;

export interface LayerGraph {
  /** Tensors that are weights or constants (never activations). */
  constants: ReadonlySet<string>;
  /** The graph's outputs (what the last layer emits). */
  graphOutputs: readonly string[];
  /** Bytes of a tensor. */
  bytesOf: (name: string) => number;
}

export const isCompute = (n: WorkloadNode): boolean => n.family !== null && COMPUTE_FAMILIES.has(n.family);

interface Live {
  name: string;
  /** Index of the producing node; -1 for graph inputs. */
  from: number;
  /** Index of the last node reading it. */
  to: number;
}

/** Activation tensors with their live ranges (only those read by a later node). */
function liveRanges(nodes: readonly WorkloadNode[], constants: ReadonlySet<string>): Live[] {
  const from = new Map<string, number>();
  const to = new Map<string, number>();
  nodes.forEach((n, i) => {
    for (const t of n.inputs) {
      if (!t.name || constants.has(t.name)) continue;
      if (!from.has(t.name)) from.set(t.name, -1);
      to.set(t.name, i);
    }
    for (const t of n.outputs) if (t.name && !constants.has(t.name) && !from.has(t.name)) from.set(t.name, i);
  });
  const out: Live[] = [];
  for (const [name, last] of to) {
    const first = from.get(name) ?? -1;
    if (last > first) out.push({ name, from: first, to: last });
  }
  return out;
}

export function groupLayers(nodes: readonly WorkloadNode[], g: LayerGraph): WorkloadLayer[] {
  const n = nodes.length;
  if (n === 0) return [];
  const compute = nodes.map(isCompute);
  const computeBefore: number[] = []; // compute nodes at indices <= i
  compute.reduce((a, c, i) => (computeBefore[i] = a + (c ? 1 : 0)), 0);
  const totalCompute = computeBefore[n - 1] ?? 0;
  const live = liveRanges(nodes, g.constants);
  const computeIn = (l: Live): number => (computeBefore[l.to] ?? 0) - (l.from >= 0 ? (computeBefore[l.from] ?? 0) : 0);
  const sideMin = Math.max(SIDE_MIN_COMPUTE, SIDE_SHARE * totalCompute);
  const counted = live.filter((l) => computeIn(l) < sideMin);

  // crossing[i]: counted tensors live across the cut after node i.
  const diff = new Array<number>(n + 1).fill(0);
  for (const l of counted) {
    diff[Math.max(l.from, 0)] = (diff[Math.max(l.from, 0)] ?? 0) + 1;
    diff[l.to] = (diff[l.to] ?? 0) - 1;
  }
  const crossing: number[] = [];
  diff.reduce((a, d, i) => (crossing[i] = a + d), 0);

  // The fewest crossings among the cuts near each compute node (within WINDOW compute nodes).
  const firstCompute = compute.indexOf(true);
  const lastCompute = compute.lastIndexOf(true);
  const minAt = new Array<number>(totalCompute + 1).fill(Infinity);
  for (let i = Math.max(firstCompute, 0); i < lastCompute; i++) {
    const k = computeBefore[i] ?? 0;
    minAt[k] = Math.min(minAt[k] ?? Infinity, crossing[i] ?? 0);
  }
  const candidate = (i: number): boolean => {
    if (i < firstCompute || i >= lastCompute) return false;
    const k = computeBefore[i] ?? 0;
    let local = Infinity;
    for (let j = Math.max(0, k - WINDOW); j <= Math.min(totalCompute, k + WINDOW); j++) {
      local = Math.min(local, minAt[j] ?? Infinity);
    }
    return (crossing[i] ?? 0) <= Math.max(local, 1);
  };
  const nextCompute: number[] = new Array<number>(n).fill(-1);
  for (let i = n - 2, next = compute[n - 1] ? n - 1 : -1; i >= 0; i--) {
    nextCompute[i] = next;
    if (compute[i]) next = i;
  }

  const cuts: number[] = [];
  let hasCompute = false;
  for (let i = 0; i < n - 1; i++) {
    hasCompute ||= compute[i] === true;
    if (!hasCompute || !candidate(i)) continue;
    const next = nextCompute[i] ?? -1;
    if (next < 0) continue;
    let later = false;
    for (let j = i + 1; j < next && !later; j++) later = candidate(j);
    if (later) continue;
    cuts.push(i);
    hasCompute = false;
  }

  // Names crossing each cut: each live range adds itself to the cuts it spans (binary search).
  const crossingAt: string[][] = cuts.map(() => []);
  for (const l of live) {
    let lo = 0;
    let hi = cuts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cuts[mid] ?? 0) < l.from) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < cuts.length && (cuts[k] ?? 0) < l.to; k++) crossingAt[k]?.push(l.name);
  }
  const layers: WorkloadLayer[] = [];
  let start = 0;
  [...cuts, n - 1].forEach((end, k) => {
    const names = k < cuts.length ? (crossingAt[k] ?? []) : [...g.graphOutputs];
    layers.push(makeLayer(nodes, start, end, layers.length, names, g));
    start = end + 1;
  });
  return layers;
}

function makeLayer(
  nodes: readonly WorkloadNode[],
  start: number,
  end: number,
  index: number,
  outTensors: string[],
  g: LayerGraph,
): WorkloadLayer {
  const idx = Array.from({ length: end - start + 1 }, (_, k) => start + k);
  const members = idx.map((i) => nodes[i]).filter((x): x is WorkloadNode => x !== undefined);
  const sum = (f: (x: WorkloadNode) => number): number => members.reduce((a, x) => a + f(x), 0);
  const first = members.find(isCompute) ?? members[0];
  return {
    index,
    name: first?.name ?? `layer ${index}`,
    nodes: idx,
    flops: sum((x) => x.flops),
    bytes: sum((x) => x.bytes),
    params: sum((x) => x.params),
    outBytes: outTensors.reduce((a, t) => a + g.bytesOf(t), 0),
    outTensors,
    activationBytes: sum((x) => x.activationBytes),
    backwardFlops: BACKWARD_FACTOR * sum((x) => (isCompute(x) ? x.flops : 0)),
  };
}
