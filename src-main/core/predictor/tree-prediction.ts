/**
 * Prediction with a fitted regression tree (regression-tree.ts): one float32 row at a time on
 * the flat tree, or many rows at once on the tree packed for it. A row goes right unless
 * fround(x) <= threshold, as the trainer routes it and as ONNX Runtime's TreeEnsembleRegressor
 * does. Pure.
 */
import type { FlatTree } from './regression-tree.js';

/**
 * A tree packed for prediction: 4 words per node, [feature, threshold (float32 bits), left,
 * right], one cache line for a node's whole decision. Leaves point to themselves (feature 0,
 * both children the leaf), so every row takes exactly `depth` steps with no leaf test, and
 * several rows can walk at once.
 */
export interface PackedTree {
  words: Int32Array;
  thresholds: Float32Array;
  value: Float64Array;
  depth: number;
}

export function packTree(t: FlatTree): PackedTree {
  const n = t.feature.length;
  const words = new Int32Array(4 * n);
  const thresholds = new Float32Array(words.buffer);
  const depthOf = new Int32Array(n);
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const f = t.feature[i] as number;
    const leaf = f < 0;
    words[4 * i] = leaf ? 0 : f;
    thresholds[4 * i + 1] = leaf ? 0 : (t.threshold[i] as number);
    const l = leaf ? i : (t.left[i] as number);
    const r = leaf ? i : (t.right[i] as number);
    words[4 * i + 2] = l;
    words[4 * i + 3] = r;
    if (!leaf) {
      depthOf[l] = depthOf[r] = (depthOf[i] as number) + 1;
      depth = Math.max(depth, (depthOf[i] as number) + 1);
    }
  }
  return { words, thresholds, value: t.value, depth };
}

/**
 * Adds the tree's prediction for each row of x (row-major float32, F features) to sum[i] and
 * its square to sumSq[i]. Routes exactly like predictTree: right unless x <= threshold.
 */
export function accumulateTree(
  tree: PackedTree,
  x: Float32Array,
  F: number,
  n: number,
  sum: Float64Array,
  sumSq: Float64Array,
): void {
  const { words, thresholds, value, depth } = tree;
  const step = (node: number, at: number): number => {
    const p = node << 2;
    return (x[at + (words[p] as number)] as number) <= (thresholds[p + 1] as number)
      ? (words[p + 2] as number)
      : (words[p + 3] as number);
  };
  const add = (i: number, leaf: number): void => {
    const v = value[leaf] as number;
    sum[i] = (sum[i] as number) + v;
    sumSq[i] = (sumSq[i] as number) + v * v;
  };
  let i = 0;
  // Four rows walk at once: their loads overlap.
  for (; i + 4 <= n; i += 4) {
    const x0 = i * F;
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let k = 0; k < depth; k++) {
      a = step(a, x0);
      b = step(b, x0 + F);
      c = step(c, x0 + 2 * F);
      d = step(d, x0 + 3 * F);
    }
    add(i, a);
    add(i + 1, b);
    add(i + 2, c);
    add(i + 3, d);
  }
  for (; i < n; i++) {
    let a = 0;
    for (let k = 0; k < depth; k++) a = step(a, i * F);
    add(i, a);
  }
}

/** The tree's prediction for the float32 row at x[at, at + nFeatures). */
export function predictTree(tree: FlatTree, x: Float32Array, at: number): number {
  const { feature, threshold, left, right, value } = tree;
  let node = 0;
  let f = feature[0] as number;
  while (f >= 0) {
    node = (x[at + f] as number) <= (threshold[node] as number) ? (left[node] as number) : (right[node] as number);
    f = feature[node] as number;
  }
  return value[node] as number;
}
