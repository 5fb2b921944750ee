/**
 * CART regression trees (squared error) on float32 features, exact splits. Pure.
 *
 * Float32 throughout, like scikit-learn: features are rounded to float32 once, thresholds are
 * float32 values, and a row goes left when fround(x) <= threshold. ONNX Runtime's
 * TreeEnsembleRegressor compares float32 inputs with float32 thresholds the same way, so an
 * exported tree routes every float32 input exactly like the in-app tree.
 *
 * Speed (no per-node sorting anywhere):
 * - Features with at most 256 distinct values (shape dims, one-hots, device features: most of
 *   ours) are stored as 8-bit level indices; a node scans one such feature with a histogram over
 *   the levels its rows occupy (O(rows + levels)).
 * - Other features are sorted once per forest; a tree keeps, per feature, its in-bag rows in
 *   that order as contiguous per-node segments, partitioned stably at each split.
 * - Features found constant in a node are skipped (and not partitioned) in all its descendants;
 *   nodes whose children are both leaves partition nothing.
 * Candidate splits lie between adjacent distinct values present in the node, at the float32
 * midpoint (or the lower value when the midpoint rounds up to the upper one).
 *
 * This file grows trees; tree-prediction.ts walks them.
 */

/** A fitted tree as flat arrays in preorder; node 0 is the root. */
export interface FlatTree {
  /** Split feature, -1 for a leaf. */
  feature: Int32Array;
  /** A float32 value: rows with fround(x) <= threshold go left. 0 at leaves. */
  threshold: Float32Array;
  /** Child node indices, -1 at leaves. */
  left: Int32Array;
  right: Int32Array;
  /** Prediction at leaves (weighted mean of the leaf's targets); 0 at split nodes. */
  value: Float64Array;
}

export interface TreeParams {
  maxDepth: number;
  minSamplesLeaf: number;
  minSamplesSplit: number;
  /** Features drawn per split (1..nFeatures). */
  maxFeatures: number;
}

const MAX_LEVELS = 256;

/** The rows a forest trains on, as columns, prepared once for all its trees. */
export class TreeTrainingRows {
  private constructor(
    readonly nRows: number,
    readonly nFeatures: number,
    readonly columns: readonly Float32Array[],
    readonly y: Float64Array,
    /** Per feature with <= 256 distinct values: the values ascending, and each row's index. */
    readonly levels: readonly (Float32Array | null)[],
    readonly ranks: readonly (Uint8Array | null)[],
    /** Per other feature: rows sorted by value. */
    readonly order: readonly (Int32Array | null)[],
  ) {}

  static from(X: readonly (readonly number[])[], y: readonly number[]): TreeTrainingRows {
    const n = X.length;
    if (n === 0) throw new Error('cannot fit on zero rows');
    if (y.length !== n) throw new Error(`X has ${n} rows but y has ${y.length} values`);
    const nFeatures = X[0]?.length ?? 0;
    if (nFeatures === 0) throw new Error('rows have no features');
    const columns = Array.from({ length: nFeatures }, () => new Float32Array(n));
    const ys = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      const row = X[r] ?? [];
      if (row.length !== nFeatures) throw new Error(`row ${r} has ${row.length} features, not ${nFeatures}`);
      for (let f = 0; f < nFeatures; f++) {
        const v = row[f] ?? NaN;
        if (!Number.isFinite(v)) throw new Error(`X[${r}][${f}] is not a finite number: ${v}`);
        (columns[f] as Float32Array)[r] = v;
      }
      const t = y[r] ?? NaN;
      if (!Number.isFinite(t)) throw new Error(`y[${r}] is not a finite number: ${t}`);
      ys[r] = t;
    }
    const levels: (Float32Array | null)[] = [];
    const ranks: (Uint8Array | null)[] = [];
    const order: (Int32Array | null)[] = [];
    for (const col of columns) {
      const sorted = sortedOrder(col);
      const distinct: number[] = [];
      for (const r of sorted) {
        const v = col[r] as number;
        if (distinct.length === 0 || v > (distinct[distinct.length - 1] as number)) distinct.push(v);
        if (distinct.length > MAX_LEVELS) break;
      }
      if (distinct.length <= MAX_LEVELS) {
        const rank = new Uint8Array(n);
        let k = 0;
        for (const r of sorted) {
          while ((col[r] as number) > (distinct[k] as number)) k++;
          rank[r] = k;
        }
        levels.push(Float32Array.from(distinct));
        ranks.push(rank);
        order.push(null);
      } else {
        levels.push(null);
        ranks.push(null);
        order.push(sorted);
      }
    }
    return new TreeTrainingRows(n, nFeatures, columns, ys, levels, ranks, order);
  }
}

/** Row indices sorted by value (ties by row index, so the order is deterministic). */
function sortedOrder(col: Float32Array): Int32Array {
  const n = col.length;
  const out = new Int32Array(n);
  if (n > 1 << 21) {
    for (let i = 0; i < n; i++) out[i] = i;
    return out.sort((a, b) => (col[a] as number) - (col[b] as number) || a - b);
  }
  // Pack (order-preserving uint32 of the float32 bits) * 2^21 + row into a double (53 bits,
  // exact) and let the engine's numeric sort do the rest: no comparator calls.
  const bits = new Uint32Array(col.buffer, col.byteOffset, n);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = bits[i] as number;
    const ordered = u & 0x80000000 ? ~u >>> 0 : (u | 0x80000000) >>> 0;
    keys[i] = ordered * 2097152 + i;
  }
  keys.sort();
  for (let i = 0; i < n; i++) out[i] = (keys[i] as number) % 2097152;
  return out;
}

/** Growable node storage while a tree is built. */
class NodeList {
  feature: number[] = [];
  threshold: number[] = [];
  left: number[] = [];
  right: number[] = [];
  value: number[] = [];

  add(): number {
    this.feature.push(-1);
    this.threshold.push(0);
    this.left.push(-1);
    this.right.push(-1);
    this.value.push(0);
    return this.feature.length - 1;
  }

  finish(): FlatTree {
    return {
      feature: Int32Array.from(this.feature),
      threshold: Float32Array.from(this.threshold),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      value: Float64Array.from(this.value),
    };
  }
}

/** A node waiting to be processed: its rows are rows[start, end) (and each sorted segment's). */
interface Pending {
  start: number;
  end: number;
  depth: number;
  parent: number;
  isLeft: boolean;
  /** Sum of weights, sum of weight * y, and whether all its targets are equal. */
  w: number;
  wy: number;
  pure: boolean;
}

/**
 * Grows one tree on the rows with weight > 0 (weights are bootstrap counts; 1 without bootstrap).
 * minSamplesLeaf and minSamplesSplit count distinct rows, as scikit-learn does.
 */
export function growTree(
  data: TreeTrainingRows,
  weights: Int32Array,
  params: TreeParams,
  rand: () => number,
): FlatTree {
  return new TreeGrower(data, weights, params, rand).grow();
}

/**
 * The state of growing one tree: the in-bag rows, the sorted features' row lists, the histograms
 * and the known-constant flags, allocated once and reused by every node (the loops allocate nothing).
 */
class TreeGrower {
  readonly F: number;
  readonly mtry: number;
  readonly w: Float64Array;
  readonly wy: Float64Array;
  /** In-bag rows (m of them); a node's rows are rows[start, end). */
  readonly rows: Int32Array;
  readonly m: number;
  /** Sorted features: slot s holds feature sortedF[s]'s in-bag rows in value order at [s*m, (s+1)*m). */
  readonly sortedF: number[] = [];
  readonly slotOf: Int32Array;
  readonly idx: Int32Array;
  readonly tmp: Int32Array;
  readonly goLeft: Uint8Array;
  readonly hw = new Float64Array(MAX_LEVELS);
  readonly hs = new Float64Array(MAX_LEVELS);
  readonly hc = new Int32Array(MAX_LEVELS);
  readonly perm: Int32Array;
  /** Known-constant flags per stack slot (a node's flags hold for all its descendants). */
  flags: Uint8Array;
  readonly nodes = new NodeList();
  // The best split found by bestSplit(): feature, level index (histogram features) or segment
  // position (sorted features), and its proxy.
  bestFeature = -1;
  bestAt = -1;
  bestProxy = -Infinity;

  constructor(
    readonly data: TreeTrainingRows,
    weights: Int32Array,
    readonly params: TreeParams,
    readonly rand: () => number,
  ) {
    const { nRows, nFeatures: F, y, order } = data;
    this.F = F;
    this.mtry = Math.max(1, Math.min(F, params.maxFeatures));
    this.w = new Float64Array(nRows);
    this.wy = new Float64Array(nRows);
    let m = 0;
    for (let r = 0; r < nRows; r++) {
      const c = weights[r] ?? 0;
      if (c > 0) m++;
      this.w[r] = c;
      this.wy[r] = c * (y[r] as number);
    }
    if (m === 0) throw new Error('no rows in bag');
    this.m = m;
    this.rows = new Int32Array(m);
    for (let r = 0, k = 0; r < nRows; r++) if ((weights[r] ?? 0) > 0) this.rows[k++] = r;
    this.slotOf = new Int32Array(F).fill(-1);
    for (let f = 0; f < F; f++) {
      if (order[f]) {
        this.slotOf[f] = this.sortedF.length;
        this.sortedF.push(f);
      }
    }
    this.idx = new Int32Array(this.sortedF.length * m);
    this.sortedF.forEach((f, s) => {
      let k = s * m;
      for (const r of order[f] as Int32Array) if ((weights[r] ?? 0) > 0) this.idx[k++] = r;
    });
    this.tmp = new Int32Array(m);
    this.goLeft = new Uint8Array(nRows);
    this.perm = Int32Array.from({ length: F }, (_, i) => i);
    this.flags = new Uint8Array(F * 64);
  }

  isLeaf(p: Pending): boolean {
    const { maxDepth, minSamplesLeaf, minSamplesSplit } = this.params;
    return p.pure || p.depth >= maxDepth || p.end - p.start < minSamplesSplit || p.end - p.start < 2 * minSamplesLeaf;
  }

  grow(): FlatTree {
    const { nodes, F } = this;
    const stack: Pending[] = [rowStats(this.rows, 0, this.m, this.w, this.wy, this.data.y, 0, -1, false)];
    while (stack.length > 0) {
      const slot = stack.length - 1;
      const node = stack.pop() as Pending;
      const id = nodes.add();
      if (node.parent >= 0) (node.isLeft ? nodes.left : nodes.right)[node.parent] = id;
      if (this.isLeaf(node)) {
        nodes.value[id] = node.wy / node.w;
        continue;
      }
      const known = this.flags.subarray(slot * F, (slot + 1) * F);
      this.bestSplit(node, known);
      if (this.bestFeature < 0) {
        nodes.value[id] = node.wy / node.w;
        continue;
      }
      const children = this.split(node, id, known);
      // Children: right at this slot (it inherits the flags in place), left on top with a copy.
      if ((slot + 2) * F > this.flags.length) {
        const grown = new Uint8Array(this.flags.length * 2);
        grown.set(this.flags);
        this.flags = grown;
      }
      this.flags.copyWithin((slot + 1) * F, slot * F, (slot + 1) * F);
      stack.push(children.right, children.left);
    }
    return nodes.finish();
  }

  /**
   * Draws features without replacement until mtry are visited and one was not constant
   * (scikit-learn's rule: constant features count as visited), keeping the best split.
   */
  bestSplit(node: Pending, known: Uint8Array): void {
    const { F, perm, rand, mtry } = this;
    this.bestFeature = -1;
    this.bestAt = -1;
    this.bestProxy = -Infinity;
    let visited = 0;
    let constants = 0;
    for (let i = 0; i < F && (visited < mtry || visited <= constants); i++) {
      const j = i + Math.floor(rand() * (F - i));
      const f = perm[j] as number;
      perm[j] = perm[i] as number;
      perm[i] = f;
      visited++;
      if (known[f]) {
        constants++;
        continue;
      }
      const constant = this.data.ranks[f] ? this.scanHistogram(node, f) : this.scanSorted(node, f);
      if (constant) {
        known[f] = 1;
        constants++;
      }
    }
  }

  /**
   * Keeps the split of feature `f` after `at` when it beats the best so far: left sums `sl` of
   * weight x target and `wl` of weight, of the node's `S` and `W`. The proxy sl²/wl + sr²/wr is
   * compared without dividing (wl, wr > 0).
   */
  private consider(f: number, at: number, sl: number, wl: number, S: number, W: number): void {
    const sr = S - sl;
    const wr = W - wl;
    const num = sl * sl * wr + sr * sr * wl;
    const den = wl * wr;
    if (num > this.bestProxy * den) {
      this.bestProxy = num / den;
      this.bestFeature = f;
      this.bestAt = at;
    }
  }

  /** Splits between the levels of a binned feature; true when it is constant on the node. */
  scanHistogram(node: Pending, f: number): boolean {
    const { hw, hs, hc, w, wy, rows } = this;
    const { minSamplesLeaf } = this.params;
    const rank = this.data.ranks[f] as Uint8Array | Uint16Array;
    const { start, end } = node;
    const n = end - start;
    let lo = MAX_LEVELS;
    let hi = -1;
    for (let k = start; k < end; k++) {
      const r = rows[k] as number;
      const q = rank[r] as number;
      hw[q] = (hw[q] as number) + (w[r] as number);
      hs[q] = (hs[q] as number) + (wy[r] as number);
      hc[q] = (hc[q] as number) + 1;
      if (q < lo) lo = q;
      if (q > hi) hi = q;
    }
    if (lo === hi) {
      hw[lo] = 0;
      hs[lo] = 0;
      hc[lo] = 0;
      return true;
    }
    const W = node.w;
    const S = node.wy;
    let wl = 0;
    let sl = 0;
    let cl = 0;
    for (let q = lo; q < hi; q++) {
      const c = hc[q] as number;
      if (c === 0) continue;
      wl += hw[q] as number;
      sl += hs[q] as number;
      cl += c;
      if (cl < minSamplesLeaf) continue;
      if (n - cl < minSamplesLeaf) break;
      this.consider(f, q, sl, wl, S, W);
    }
    hw.fill(0, lo, hi + 1);
    hs.fill(0, lo, hi + 1);
    hc.fill(0, lo, hi + 1);
    return false;
  }

  /** Splits between consecutive distinct values of a sorted feature; true when it is constant on the node. */
  scanSorted(node: Pending, f: number): boolean {
    const { idx, w, wy } = this;
    const { minSamplesLeaf } = this.params;
    const { start, end } = node;
    const n = end - start;
    const off = (this.slotOf[f] as number) * this.m;
    const col = this.data.columns[f] as Float32Array;
    if ((col[idx[off + start] as number] as number) >= (col[idx[off + end - 1] as number] as number)) return true;
    const W = node.w;
    const S = node.wy;
    // Split after position pos: left = [start, start + pos].
    let wl = 0;
    let sl = 0;
    const lastPos = n - minSamplesLeaf; // left holds at most n - minSamplesLeaf rows
    let next = idx[off + start] as number;
    let xNext = col[next] as number;
    for (let pos = 0; pos < lastPos; pos++) {
      const r = next;
      const x = xNext;
      next = idx[off + start + pos + 1] as number;
      xNext = col[next] as number;
      wl += w[r] as number;
      sl += wy[r] as number;
      if (xNext <= x || pos + 1 < minSamplesLeaf) continue;
      this.consider(f, pos, sl, wl, S, W);
    }
    return false;
  }

  /** Records the best split on node `id`, partitions its rows and sorted lists, and returns the children. */
  split(node: Pending, id: number, known: Uint8Array): { left: Pending; right: Pending } {
    const { start, end } = node;
    const nLeft = this.route(node, id);
    const mid = start + nLeft;
    this.stable(this.rows, start, end);
    const { rows, w, wy } = this;
    const y = this.data.y;
    const left = rowStats(rows, start, mid, w, wy, y, node.depth + 1, id, true);
    const right = rowStats(rows, mid, end, w, wy, y, node.depth + 1, id, false);
    if (!this.isLeaf(left) || !this.isLeaf(right)) this.partitionSorted(node, known);
    return { left, right };
  }

  /**
   * Marks each of the node's rows left or right (goLeft), sets the node's feature and threshold
   * (midway between the last left value a and the first right value b), and returns the left count.
   */
  route(node: Pending, id: number): number {
    const { bestFeature, bestAt, goLeft, idx, rows } = this;
    const { start, end } = node;
    let a: number;
    let b: number;
    let nLeft: number;
    const bestRank = this.data.ranks[bestFeature];
    if (bestRank) {
      const lv = this.data.levels[bestFeature] as Float32Array;
      let nextLevel = MAX_LEVELS;
      nLeft = 0;
      for (let k = start; k < end; k++) {
        const r = rows[k] as number;
        const q = bestRank[r] as number;
        const g = q <= bestAt ? 1 : 0;
        goLeft[r] = g;
        nLeft += g;
        if (q > bestAt && q < nextLevel) nextLevel = q;
      }
      a = lv[bestAt] as number;
      b = lv[nextLevel] as number;
    } else {
      const off = (this.slotOf[bestFeature] as number) * this.m;
      const col = this.data.columns[bestFeature] as Float32Array;
      nLeft = bestAt + 1;
      for (let k = off + start; k < off + start + nLeft; k++) goLeft[idx[k] as number] = 1;
      for (let k = off + start + nLeft; k < off + end; k++) goLeft[idx[k] as number] = 0;
      a = col[idx[off + start + bestAt] as number] as number;
      b = col[idx[off + start + nLeft] as number] as number;
    }
    let t = Math.fround((a + b) / 2);
    if (t >= b) t = a;
    this.nodes.feature[id] = bestFeature;
    this.nodes.threshold[id] = t;
    return nLeft;
  }

  /** Partitions every other sorted feature's list like the rows; a feature constant here is marked known. */
  partitionSorted(node: Pending, known: Uint8Array): void {
    const { sortedF, idx, m } = this;
    const { start, end } = node;
    const bestSlot = this.slotOf[this.bestFeature] as number;
    for (let s = 0; s < sortedF.length; s++) {
      const f = sortedF[s] as number;
      if (s === bestSlot || known[f]) continue;
      const o = s * m;
      const c = this.data.columns[f] as Float32Array;
      // Constant here: constant in both children, which then never read this list.
      if ((c[idx[o + start] as number] as number) >= (c[idx[o + end - 1] as number] as number)) {
        known[f] = 1;
        continue;
      }
      this.stable(idx, o + start, o + end);
    }
  }

  /** Stable, branchless partition by goLeft: every row is written to both places, the cursors move by side. */
  stable(a: Int32Array, from: number, to: number): void {
    const { goLeft, tmp } = this;
    let l = from;
    let tn = 0;
    for (let i = from; i < to; i++) {
      const r = a[i] as number;
      const g = goLeft[r] as number;
      a[l] = r;
      tmp[tn] = r;
      l += g;
      tn += 1 - g;
    }
    a.set(tmp.subarray(0, tn), l);
  }
}

/** Weight, weighted target sum and purity of rows[from, to). */
function rowStats(
  rows: Int32Array,
  from: number,
  to: number,
  w: Float64Array,
  wy: Float64Array,
  y: Float64Array,
  depth: number,
  parent: number,
  isLeft: boolean,
): Pending {
  let sw = 0;
  let swy = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = from; i < to; i++) {
    const r = rows[i] as number;
    sw += w[r] as number;
    swy += wy[r] as number;
    const v = y[r] as number;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return { start: from, end: to, depth, parent, isLeft, w: sw, wy: swy, pure: lo === hi };
}
