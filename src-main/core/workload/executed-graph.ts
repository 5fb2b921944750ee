/**
 * The graph ONNX Runtime executes, mapped back to the user's graph it was optimized from
 * (SessionOptions.optimizedModelFilePath writes it): which user nodes each executed node
 * covers, and which user nodes have no counterpart (folded, eliminated or fused away). Pure.
 *
 * ORT keeps the names of the tensors and nodes it does not touch, and names what it makes
 * after what it replaced, so the map follows names:
 *
 *   - an executed node writing a tensor of the user's graph covers the user node writing it;
 *   - one named after a user node ("mm1", "mm1/MatMulAddFusion", "fused mm1/...") covers that
 *     node when the ops agree (Conv and FusedConv, MatMul and FusedMatMul, Gemm...), one named
 *     `<tensor>_nchwc` (`<tensor>_bn_nchwc`) the node writing `<tensor>`;
 *   - a compute node also covers the nodes whose outputs it hides: walking back from what it
 *     covers through user tensors that no longer exist (a conv's output inside Conv+BN+Relu),
 *     and forward through ORT's plumbing (Reshape, ReorderOutput) to the first user tensor;
 *   - a node with none of these (ReorderInput, the Reshapes around an NCHWc Add) goes with its
 *     consumer's first user node, else with its producer's.
 *
 * An executed node's covered nodes are listed with the one matching its op first, then in
 * graph order: the first is the node its time belongs to (the Conv of a Conv+BN+Relu fusion,
 * the MatMul of a MatMul+Add Gemm).
 */
import type { OnnxGraph, OnnxModel, OnnxNode } from '../onnx/onnx-parser.js';
import { FREE_OPS } from './node-cost.js';
import { NCHWC_DOMAIN } from './shape-inference-nchwc.js';

export interface ExecutedNodeMap {
  /** Per executed node (graph order), the indices of the user nodes it covers; [0] is its main one. */
  executedToSource: number[][];
  /** Per user node, the indices of the executed nodes covering it. */
  sourceToExecuted: number[][];
  /** User nodes no executed node covers: constant-folded, eliminated (Identity, Dropout) or fused away. */
  fusedAway: number[];
}

const isReorder = (n: OnnxNode): boolean =>
  n.domain === NCHWC_DOMAIN && (n.opType === 'ReorderInput' || n.opType === 'ReorderOutput');

/** Ops that only relabel data (Reshape, Identity, Dropout...). */
const isFree = (n: OnnxNode): boolean => n.domain === '' && FREE_OPS.has(n.opType);

/** Nodes that only move or relabel data ORT's way: they never take over the user's compute nodes. */
const isPlumbing = (n: OnnxNode): boolean => isReorder(n) || isFree(n);

/** Op types compared across fusions: FusedConv is a Conv, SkipLayerNormalization a LayerNormalization. */
function baseOp(opType: string): string {
  const op = opType.replace(/^(Fused|Skip|Bias)/, '');
  return op === 'Gemm' || op === 'TransposeMatMul' ? 'MatMul' : op;
}

/** Every tensor name the graph uses. */
function tensorNames(g: OnnxGraph): Set<string> {
  const names = new Set<string>();
  for (const v of [...g.inputs, ...g.outputs, ...g.valueInfo, ...g.initializers]) names.add(v.name);
  for (const n of g.nodes) for (const t of [...n.inputs, ...n.outputs]) if (t) names.add(t);
  return names;
}

/** User nodes computable at load time: Constant, Shape, Size, and nodes of only such inputs. */
function loadTimeNodes(g: OnnxGraph): Set<number> {
  const constant = new Set(g.initializers.map((t) => t.name));
  const nodes = new Set<number>();
  g.nodes.forEach((n, i) => {
    const given = n.inputs.filter((t) => t !== '');
    const folded =
      n.opType === 'Constant' ||
      n.opType === 'Shape' ||
      n.opType === 'Size' ||
      (given.length > 0 && given.every((t) => constant.has(t)));
    if (!folded) return;
    nodes.add(i);
    for (const o of n.outputs) if (o) constant.add(o);
  });
  return nodes;
}

/** Tensor names an NCHWc node may be named after: `<t>_nchwc`, `<t>_bn_nchwc`, with ORT's `_token_N` suffix. */
function nchwcNameTargets(name: string): string[] {
  const base = name.replace(/_token_\d+$/, '');
  if (!base.endsWith('_nchwc')) return [];
  const t = base.slice(0, -'_nchwc'.length);
  return t.endsWith('_bn') ? [t, t.slice(0, -'_bn'.length)] : [t];
}

/** User node names an ORT fusion may be named after: "mm1/MatMulAddFusion", "fused mm1/...". */
function fusionNameTargets(name: string): string[] {
  const base = name.replace(/^(fused )+/, '').replace(/_token_\d+$/, '');
  const head = base.split('/')[0] ?? '';
  return head && head !== base ? [base, head] : [base];
}

/** Lookups over both graphs. */
interface Links {
  src: readonly OnnxNode[];
  exe: readonly OnnxNode[];
  /** User tensor -> the user node writing it. */
  producer: Map<string, number>;
  /** User tensor -> the user nodes reading it. */
  readers: Map<string, number[]>;
  /** User node name -> index. */
  byName: Map<string, number>;
  /** Tensors the executed graph still has. */
  live: Set<string>;
  /** User nodes computable at load time. */
  loadTime: Set<number>;
  /** Executed tensor -> the executed nodes reading it. */
  exeReaders: Map<string, number[]>;
  /** Executed tensor -> the executed node writing it. */
  exeProducer: Map<string, number>;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function links(source: OnnxModel, executed: OnnxModel): Links {
  const src = source.graph.nodes;
  const exe = executed.graph.nodes;
  const l: Links = {
    src,
    exe,
    producer: new Map(),
    readers: new Map(),
    byName: new Map(),
    live: tensorNames(executed.graph),
    loadTime: loadTimeNodes(source.graph),
    exeReaders: new Map(),
    exeProducer: new Map(),
  };
  src.forEach((n, i) => {
    for (const o of n.outputs) if (o) l.producer.set(o, i);
    for (const t of n.inputs) if (t) push(l.readers, t, i);
    if (n.name && !l.byName.has(n.name)) l.byName.set(n.name, i);
  });
  exe.forEach((n, i) => {
    for (const o of n.outputs) if (o) l.exeProducer.set(o, i);
    for (const t of n.inputs) if (t) push(l.exeReaders, t, i);
  });
  return l;
}

/** User nodes an executed node names: by the tensors it writes and by its own name. */
function namedAnchors(l: Links, n: OnnxNode): number[] {
  const found: number[] = [];
  for (const o of n.outputs) {
    const p = l.producer.get(o);
    if (p !== undefined) found.push(p);
  }
  if (n.domain === NCHWC_DOMAIN) {
    const t = nchwcNameTargets(n.name).find((x) => l.producer.has(x));
    const p = t === undefined ? undefined : l.producer.get(t);
    if (p !== undefined) found.push(p);
  } else if (n.name) {
    for (const name of fusionNameTargets(n.name)) {
      const s = l.byName.get(name);
      if (s !== undefined && baseOp(l.src[s]?.opType ?? '') === baseOp(n.opType)) found.push(s);
    }
  }
  return found;
}

/** The user tensors a compute node's internal outputs become through ORT's plumbing (Reshape, ReorderOutput). */
function forwardAnchors(l: Links, i: number): number[] {
  const found: number[] = [];
  const seen = new Set<number>();
  const visit = (t: string): void => {
    for (const c of l.exeReaders.get(t) ?? []) {
      const n = l.exe[c];
      if (!n || seen.has(c) || !isPlumbing(n)) continue;
      seen.add(c);
      for (const o of n.outputs) {
        const p = o ? l.producer.get(o) : undefined;
        if (p !== undefined) found.push(p);
        else if (o) visit(o);
      }
    }
  };
  for (const o of l.exe[i]?.outputs ?? []) if (o && !l.producer.has(o)) visit(o);
  return found;
}

/**
 * What an NCHWc conv fused after the user's conv it names: the Add of its `Sum` input, then
 * the op of its `activation` attribute, when their outputs no longer exist.
 */
function nchwcFusedAnchors(l: Links, n: OnnxNode, anchors: readonly number[]): number[] {
  if (n.domain !== NCHWC_DOMAIN || n.opType !== 'Conv') return [];
  const act = n.attributes.get('activation');
  const steps: ((op: string) => boolean)[] = [];
  if (n.inputs[3]) steps.push((op) => op === 'Add' || op === 'Sum');
  if (act?.type === 'STRING' && !anchors.some((s) => l.src[s]?.opType === act.value)) {
    steps.push((op) => op === act.value);
  }
  const found: number[] = [];
  let at = anchors.find((s) => l.src[s]?.opType === 'Conv');
  for (const step of steps) {
    if (at === undefined) break;
    const outs = (l.src[at]?.outputs ?? []).filter((o) => o && !l.live.has(o));
    at = outs.flatMap((o) => l.readers.get(o) ?? []).find((u) => step(l.src[u]?.opType ?? ''));
    if (at !== undefined) found.push(at);
  }
  return found;
}

/**
 * Adds to `into` the unclaimed user nodes whose outputs vanished on the way back from `into`'s
 * nodes. The walk passes through vanished data-free nodes (Identity, Dropout, Reshape...)
 * without taking them: ORT eliminated those, it did not fuse them.
 */
function walkBack(l: Links, into: Set<number>, claimed: Set<number>): void {
  const stack = [...into];
  const seen = new Set(stack);
  while (stack.length > 0) {
    const at = l.src[stack.pop() as number];
    for (const t of at?.inputs ?? []) {
      if (!t || l.live.has(t)) continue;
      const p = l.producer.get(t);
      if (p === undefined || seen.has(p) || l.loadTime.has(p) || claimed.has(p)) continue;
      seen.add(p);
      stack.push(p);
      if (isFree(l.src[p] as OnnxNode)) continue;
      into.add(p);
      claimed.add(p);
    }
  }
}

/**
 * User compute nodes still unclaimed whose outputs all vanished were fused into what computes
 * their input (an activation ORT folded into the conv before it): they join its executed node.
 */
function attachFusedLeftovers(l: Links, covers: Set<number>[], claimed: Set<number>): void {
  const coveredBy = new Map<number, number>();
  covers.forEach((set, i) => {
    if (l.exe[i] && !isPlumbing(l.exe[i] as OnnxNode)) for (const s of set) if (!coveredBy.has(s)) coveredBy.set(s, i);
  });
  l.src.forEach((n, u) => {
    if (claimed.has(u) || l.loadTime.has(u) || isFree(n)) return;
    if (n.outputs.some((o) => o && l.live.has(o))) return;
    const e = n.inputs.map((t) => coveredBy.get(l.producer.get(t) ?? -1)).find((x) => x !== undefined);
    if (e === undefined) return;
    covers[e]?.add(u);
    coveredBy.set(u, e);
    claimed.add(u);
  });
}

/** Maps an optimized graph (`executed`) back to the user's graph it came from (`source`). */
export function mapExecutedNodes(source: OnnxModel, executed: OnnxModel): ExecutedNodeMap {
  const l = links(source, executed);
  const anchors = l.exe.map((n, i) => {
    const named = namedAnchors(l, n);
    if (isPlumbing(n)) return named;
    const more = [...named, ...forwardAnchors(l, i)];
    return [...new Set([...more, ...nchwcFusedAnchors(l, n, more)])];
  });
  const claimed = new Set(anchors.flat());
  const covers = anchors.map((a, i) => {
    const set = new Set(a);
    if (!isPlumbing(l.exe[i] as OnnxNode)) walkBack(l, set, claimed);
    return set;
  });
  attachFusedLeftovers(l, covers, claimed);
  const ordered = covers.map((set, i) => orderCovered([...set], l.src, l.exe[i] as OnnxNode));
  attachUnanchored(l, ordered);

  const sourceToExecuted: number[][] = l.src.map(() => []);
  ordered.forEach((list, i) => list.forEach((s) => sourceToExecuted[s]?.push(i)));
  const fusedAway = sourceToExecuted.flatMap((list, s) => (list.length === 0 ? [s] : []));
  return { executedToSource: ordered, sourceToExecuted, fusedAway };
}

/** The node matching the executed op first, then graph order. */
function orderCovered(list: number[], src: readonly OnnxNode[], n: OnnxNode): number[] {
  const op = baseOp(n.opType);
  const rank = (s: number): number => (baseOp(src[s]?.opType ?? '') === op ? 0 : 1);
  return list.sort((a, b) => rank(a) - rank(b) || a - b);
}

/**
 * Executed nodes that name no user node (ReorderInput, ORT's Reshapes) take their consumer's
 * main user node, else their producer's; repeated until nothing changes, so chains of them resolve.
 */
function attachUnanchored(l: Links, ordered: number[][]): void {
  const pending = new Set(ordered.flatMap((list, i) => (list.length === 0 ? [i] : [])));
  for (let changed = true; changed && pending.size > 0;) {
    changed = false;
    for (const i of pending) {
      const n = l.exe[i] as OnnxNode;
      const near = [
        ...n.outputs.flatMap((o) => (o ? (l.exeReaders.get(o) ?? []) : [])),
        ...n.inputs.flatMap((t) => {
          const p = t ? l.exeProducer.get(t) : undefined;
          return p === undefined ? [] : [p];
        }),
      ];
      const main = near.map((j) => ordered[j]?.[0]).find((s) => s !== undefined);
      if (main === undefined) continue;
      ordered[i] = [main];
      pending.delete(i);
      changed = true;
    }
  }
}

/** Dims of the user graph's weights: initializers and Constant nodes' values. */
function weightDims(g: OnnxGraph): Map<string, number[]> {
  const dims = new Map(g.initializers.map((t) => [t.name, t.dims]));
  for (const n of g.nodes) {
    const v = n.opType === 'Constant' ? n.attributes.get('value') : undefined;
    if (v?.type === 'TENSOR' && n.outputs[0]) dims.set(n.outputs[0], v.value.dims);
  }
  return dims;
}

/** Input holding a user node's output channel count in its first dim: a conv's weights, a BatchNormalization's scale. */
const CHANNELS_INPUT: Record<string, number> = { Conv: 1, FusedConv: 1, BatchNormalization: 1 };

/**
 * True output channel counts of the executed graph's NCHWc convs, by output tensor, from the
 * user's nodes they came from (a conv's weights, a BatchNormalization's scale). For
 * inferShapes' `nchwcChannels`: the executed graph alone does not tell them where a conv's
 * padded output feeds only other convs.
 */
export function nchwcChannelHints(
  source: OnnxModel,
  executed: OnnxModel,
  map: ExecutedNodeMap = mapExecutedNodes(source, executed),
): Record<string, number> {
  const dims = weightDims(source.graph);
  const hints: Record<string, number> = {};
  executed.graph.nodes.forEach((n, i) => {
    const out = n.outputs[0];
    if (n.domain !== NCHWC_DOMAIN || n.opType !== 'Conv' || !out) return;
    const counts = new Set<number>();
    for (const s of map.executedToSource[i] ?? []) {
      const u = source.graph.nodes[s];
      const at = u ? CHANNELS_INPUT[u.opType] : undefined;
      const c = u && at !== undefined ? dims.get(u.inputs[at] ?? '')?.[0] : undefined;
      if (c !== undefined) counts.add(c);
    }
    // A conv covers its own Conv, maybe with the BatchNormalization after it (the same count): more is doubt.
    const [only] = counts;
    if (counts.size === 1 && only !== undefined) hints[out] = only;
  });
  return hints;
}
