/**
 * ONNX Runtime's NCHWc layout (domain com.microsoft.nchwc), as it appears in the graphs ORT
 * writes after optimizing for a CPU with AVX2 (block 8) or AVX-512 (block 16): shape rules of
 * its ops, the block size a graph was built for, and the true channel counts of its blocked
 * tensors. Pure.
 *
 * A blocked tensor is stored 4-D [N, C rounded up to the block, H, W]. The ops that make or
 * take them: ReorderInput (NCHW -> blocked), ReorderOutput (blocked -> NCHW; its `channels` is
 * the true count), Conv (weights and bias padded to the block; a group-1 conv with fewer input
 * channels than the block reads NCHW input directly; optional fused `activation` and 4th input
 * `Sum`), MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool and Upsample (integer
 * `scales`). Plain ops may also run on blocked tensors: Add, Mul, Sum, Concat and activations,
 * and the Reshapes ORT inserts to view [N, Cp, H, W] as [N, Cp/block, H, W, block].
 *
 * The padded counts hide the true ones, which costs need. They are recovered from the graph:
 * channels flow unchanged through depthwise convs, pools, activations and elementwise ops;
 * ReorderOutput states them; ReorderInput and Concat keep them. Where nothing in the graph
 * tells (a group-1 conv feeding only other convs), a caller that knows them (the source
 * model, executed-graph.ts) may give them; otherwise the padded count stands, flagged.
 */
import type { OnnxGraph, OnnxNode } from '../onnx/onnx-parser.js';
import { conv, globalPool, pool } from './shape-inference-nn.js';
import { ShapeUnknown, tensor, type ShapeRule, type InferredTensor } from './shape-inference-context.js';

export const NCHWC_DOMAIN = 'com.microsoft.nchwc';

/** Block sizes MLAS uses: 16 floats with AVX-512F, 8 with AVX2. */
const BLOCK_SIZES = [16, 8] as const;

/** A tensor in the blocked layout: dims[1] is `channels` rounded up to the block. */
export interface BlockedTensorInfo extends InferredTensor {
  /** The true channel count. */
  channels: number;
  /** True when `channels` is only the padded count: neither the graph nor a hint told the true one. */
  channelsPadded?: boolean;
}

const roundUp = (n: number, block: number): number => Math.ceil(n / block) * block;

function attrInt(n: OnnxNode, name: string, fallback: number): number {
  const a = n.attributes.get(name);
  return a?.type === 'INT' ? a.value : fallback;
}

/** ReorderInput: [N, C, ...] (or [N, ..., C] with channels_last) -> [N, C up to the block, ...]. */
function reorderInput(block: number): ShapeRule {
  return (c) => {
    const x = c.dims(0);
    if (x.length < 2) throw new ShapeUnknown(`ReorderInput of a rank-${x.length} tensor`);
    const last = c.int('channels_last', 0) === 1;
    const ch = (last ? x[x.length - 1] : x[1]) ?? 1;
    const spatial = last ? x.slice(1, -1) : x.slice(2);
    return [tensor([x[0] ?? 1, roundUp(ch, block), ...spatial], c.dtype(0))];
  };
}

/** ReorderOutput: blocked [N, Cp, ...] -> [N, channels, ...] (or [N, ..., channels] with channels_last). */
const reorderOutput: ShapeRule = (c) => {
  const x = c.dims(0);
  const ch = c.int('channels', 0);
  if (ch <= 0 || x.length < 2) throw new ShapeUnknown('ReorderOutput without a channel count');
  const spatial = x.slice(2);
  const dims = c.int('channels_last', 0) === 1 ? [x[0] ?? 1, ...spatial, ch] : [x[0] ?? 1, ch, ...spatial];
  return [tensor(dims, c.dtype(0))];
};

/** Upsample: every dim times its integer scale. */
const upsample: ShapeRule = (c) => {
  const x = c.dims(0);
  const scales = c.ints('scales');
  if (!scales || scales.length !== x.length) throw new ShapeUnknown('Upsample without one scale per dim');
  return [
    tensor(
      x.map((d, i) => d * (scales[i] ?? 1)),
      c.dtype(0),
    ),
  ];
};

/** Shape rules of the com.microsoft.nchwc ops for a graph built for `block`; outputs in the padded shape. */
function nchwcRules(block: number): Record<string, ShapeRule> {
  return {
    Conv: conv(0, 1),
    ReorderInput: reorderInput(block),
    ReorderOutput: reorderOutput,
    MaxPool: pool(),
    AveragePool: pool(),
    GlobalAveragePool: globalPool,
    GlobalMaxPool: globalPool,
    Upsample: upsample,
  };
}

const RULES_BY_BLOCK = new Map<number, Record<string, ShapeRule>>();

/** The rule of one com.microsoft.nchwc op, or undefined. */
export function nchwcRule(opType: string, block: number): ShapeRule | undefined {
  let rules = RULES_BY_BLOCK.get(block);
  if (!rules) {
    rules = nchwcRules(block);
    RULES_BY_BLOCK.set(block, rules);
  }
  return rules[opType];
}

export const hasNchwc = (g: OnnxGraph): boolean => g.nodes.some((n) => n.domain === NCHWC_DOMAIN);

/**
 * Tensors in the blocked layout (nodes in topological order): outputs of the nchwc ops but
 * ReorderOutput, and of any other op reading a blocked tensor (ORT reorders back to NCHW
 * before every op that cannot take one).
 */
function blockedTensorNames(nodes: readonly OnnxNode[]): Set<string> {
  const blocked = new Set<string>();
  for (const n of nodes) {
    const makes =
      n.domain === NCHWC_DOMAIN ? n.opType !== 'ReorderOutput' : n.inputs.some((i) => i !== '' && blocked.has(i));
    if (makes) for (const o of n.outputs) if (o) blocked.add(o);
  }
  return blocked;
}

const isNchwcConv = (n: OnnxNode): boolean => n.domain === NCHWC_DOMAIN && n.opType === 'Conv';

/** A depthwise nchwc Conv: one filter per channel, group = the padded channel count. */
function isDepthwise(n: OnnxNode, w: readonly number[] | null | undefined): boolean {
  const group = attrInt(n, 'group', 1);
  return group > 1 && w?.[1] === 1 && w[0] === group;
}

/**
 * The NCHWc block size the graph was built for (the file does not record it). The Reshape
 * that splits channels into blocks names it; otherwise the largest block every conv fits:
 * padded output channels (and blocked input channels) are multiples of it, and a group-1 conv
 * reading NCHW input has fewer input channels than it. 16 when nothing tells.
 */
export function nchwcBlockSize(g: OnnxGraph): number {
  const inits = new Map(g.initializers.map((t) => [t.name, t]));
  const blocked = blockedTensorNames(g.nodes);
  for (const n of g.nodes) {
    if (n.domain !== '' || n.opType !== 'Reshape' || !blocked.has(n.inputs[0] ?? '')) continue;
    const shape = inits.get(n.inputs[1] ?? '')?.values;
    const block = shape?.length === 5 ? shape[4] : undefined;
    if (block === 8 || block === 16) return block;
  }
  const fits = (block: number): boolean =>
    g.nodes.every((n) => {
      const w = isNchwcConv(n) ? inits.get(n.inputs[1] ?? '')?.dims : undefined;
      if (!w || w.length < 2) return true;
      if ((w[0] ?? 0) % block !== 0) return false;
      if (attrInt(n, 'group', 1) !== 1) return true;
      return blocked.has(n.inputs[0] ?? '') ? (w[1] ?? 0) % block === 0 : (w[1] ?? 0) < block;
    });
  return BLOCK_SIZES.find(fits) ?? 8;
}

/** Union-find over tensor names: tensors that must have the same true channel count. */
class ChannelClasses {
  private readonly parent = new Map<string, string>();

  find(name: string): string {
    let root = name;
    for (let p = this.parent.get(root); p !== undefined && p !== root; p = this.parent.get(root)) root = p;
    this.parent.set(name, root);
    return root;
  }

  union(a: string, b: string): void {
    if (!a || !b) return;
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

/** Equalities (same count) and facts (a known count) about true channel counts, from the graph. */
function channelEvidence(
  nodes: readonly OnnxNode[],
  tensors: ReadonlyMap<string, InferredTensor>,
  blocked: ReadonlySet<string>,
): { classes: ChannelClasses; facts: Map<string, number> } {
  const classes = new ChannelClasses();
  const facts = new Map<string, number>();
  const dimsOf = (name: string | undefined): number[] | null => (name ? (tensors.get(name)?.dims ?? null) : null);
  for (const n of nodes) {
    const x = n.inputs[0] ?? '';
    const y = n.outputs[0] ?? '';
    if (n.domain === NCHWC_DOMAIN) {
      if (n.opType === 'ReorderOutput') {
        facts.set(x, attrInt(n, 'channels', 0));
      } else if (n.opType === 'ReorderInput') {
        const d = dimsOf(x);
        const ch = attrInt(n, 'channels_last', 0) === 1 ? d?.[d.length - 1] : d?.[1];
        if (ch !== undefined) facts.set(y, ch);
      } else if (n.opType === 'Conv') {
        classes.union(y, n.inputs[3] ?? ''); // the fused Sum input
        const w = dimsOf(n.inputs[1]);
        if (isDepthwise(n, w)) classes.union(y, x);
        else if (attrInt(n, 'group', 1) > 1 && w?.[0] !== undefined) facts.set(y, w[0]); // grouped: block-aligned
      } else {
        classes.union(y, x); // pools, Upsample
      }
    } else if (blocked.has(y)) {
      if (n.opType === 'Concat') {
        // ORT concatenates blocked tensors only when every input is block-aligned: no padding.
        for (const name of [...n.inputs, y]) {
          const ch = dimsOf(name)?.[1];
          if (name && ch !== undefined) facts.set(name, ch);
        }
      } else {
        for (const i of n.inputs) if (blocked.has(i)) classes.union(y, i);
      }
    }
  }
  return { classes, facts };
}

/**
 * Gives every blocked tensor (4-D, or 5-D [N, Cp/block, H, W, block]) its true channel count
 * (BlockedTensorInfo), from the graph's evidence, then `hints` (true counts by tensor name),
 * then the padded count (flagged channelsPadded). Counts outside (padded - block, padded] are
 * ignored as inconsistent.
 */
export function annotateBlockedChannels(
  nodes: readonly OnnxNode[],
  tensors: Map<string, InferredTensor>,
  block: number,
  hints: Readonly<Record<string, number>> = {},
): void {
  const blocked = blockedTensorNames(nodes);
  const { classes, facts } = channelEvidence(nodes, tensors, blocked);
  const padded = (name: string): number | undefined => {
    const d = tensors.get(name)?.dims;
    if (d?.length === 4) return d[1];
    if (d?.length === 5) return (d[1] ?? 0) * (d[4] ?? 0);
    return undefined;
  };
  const valueOf = new Map<string, number>();
  const learn = (name: string, ch: number): void => {
    const p = padded(name);
    const root = classes.find(name);
    if (p === undefined || valueOf.has(root) || !(ch > p - block && ch <= p)) return;
    valueOf.set(root, ch);
  };
  for (const [name, ch] of facts) learn(name, ch);
  for (const [name, ch] of Object.entries(hints)) if (blocked.has(name)) learn(name, ch);
  for (const name of blocked) {
    const t = tensors.get(name);
    const p = padded(name);
    if (!t || p === undefined) continue;
    const ch = valueOf.get(classes.find(name));
    const info: BlockedTensorInfo =
      ch === undefined ? { ...t, channels: p, channelsPadded: true } : { ...t, channels: ch };
    tensors.set(name, info);
  }
}
