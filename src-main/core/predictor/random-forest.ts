/**
 * Random forest regressor: bagged CART trees (regression-tree.ts) with per-split feature
 * subsampling, deterministic for a seed, serialisable to plain JSON. Pure.
 *
 * Inputs are used as float32 (see regression-tree.ts): predictions for x and Math.fround(x)
 * are identical, which is what lets an ONNX export route rows exactly like this class.
 */
import { seededRandom } from '../kernels/fill.js';
import { growTree, TreeTrainingRows, type FlatTree } from './regression-tree.js';
import { accumulateTree, packTree, predictTree, type PackedTree } from './tree-prediction.js';

export interface ForestOptions {
  nEstimators: number;
  /** Infinity for unlimited. */
  maxDepth: number;
  minSamplesLeaf: number;
  minSamplesSplit: number;
  /** Per split: a count (integer >= 1), a fraction of the features (0 < v < 1), or a rule. */
  maxFeatures: number | 'sqrt' | 'third' | 'all';
  /** Each tree sees a bootstrap sample (n draws with replacement); else all rows. */
  bootstrap: boolean;
  seed: number;
}

const FOREST_DEFAULTS: ForestOptions = {
  nEstimators: 100,
  maxDepth: Infinity,
  minSamplesLeaf: 1,
  minSamplesSplit: 2,
  maxFeatures: 'third',
  bootstrap: true,
  seed: 42,
};

export interface TreeJson {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export interface ForestJson {
  kind: 'random-forest-regressor';
  /** maxDepth is null for unlimited (JSON has no Infinity). */
  options: Omit<ForestOptions, 'maxDepth'> & { maxDepth: number | null };
  nFeatures: number;
  trees: TreeJson[];
}

export class RandomForestRegressor {
  readonly options: ForestOptions;
  private trees: FlatTree[] = [];
  private packed: PackedTree[] = [];
  private nFeatures = 0;
  private oob: Float64Array | null = null;

  constructor(opts: Partial<ForestOptions> = {}) {
    this.options = validOptions({ ...FOREST_DEFAULTS, ...opts });
  }

  get treeCount(): number {
    return this.trees.length;
  }

  get featureCount(): number {
    return this.nFeatures;
  }

  /** The fitted trees (flat arrays, read-only by convention). */
  get fittedTrees(): readonly FlatTree[] {
    return this.trees;
  }

  fit(X: readonly (readonly number[])[], y: readonly number[]): void {
    const data = TreeTrainingRows.from(X, y);
    const o = this.options;
    const params = {
      maxDepth: o.maxDepth,
      minSamplesLeaf: o.minSamplesLeaf,
      minSamplesSplit: o.minSamplesSplit,
      maxFeatures: resolveMaxFeatures(o.maxFeatures, data.nFeatures),
    };
    const n = data.nRows;
    const seeds = seededRandom(o.seed);
    const trees: FlatTree[] = [];
    const oobSum = new Float64Array(n);
    const oobCount = new Int32Array(n);
    const row = new Float32Array(data.nFeatures);
    for (let t = 0; t < o.nEstimators; t++) {
      const rand = seededRandom(Math.floor(seeds() * 4294967296));
      const counts = new Int32Array(n);
      if (o.bootstrap) {
        for (let i = 0; i < n; i++) {
          const r = Math.floor(rand() * n);
          counts[r] = (counts[r] as number) + 1;
        }
      } else {
        counts.fill(1);
      }
      const tree = growTree(data, counts, params, rand);
      trees.push(tree);
      for (let r = 0; r < n; r++) {
        if (counts[r] !== 0) continue;
        for (let f = 0; f < data.nFeatures; f++) row[f] = (data.columns[f] as Float32Array)[r] as number;
        oobSum[r] = (oobSum[r] as number) + predictTree(tree, row, 0);
        oobCount[r] = (oobCount[r] as number) + 1;
      }
    }
    this.trees = trees;
    this.packed = trees.map(packTree);
    this.nFeatures = data.nFeatures;
    this.oob = oobSum.map((s, r) => ((oobCount[r] as number) > 0 ? s / (oobCount[r] as number) : NaN));
  }

  predict(X: readonly (readonly number[])[]): number[] {
    return this.predictWithSpread(X).mean;
  }

  /** Mean and (population) standard deviation over trees, for an uncertainty band. */
  predictWithSpread(X: readonly (readonly number[])[]): { mean: number[]; std: number[] } {
    if (this.trees.length === 0) throw new Error('random forest is not fitted');
    const F = this.nFeatures;
    const n = X.length;
    const rows = new Float32Array(n * F);
    X.forEach((r, i) => {
      if (r.length !== F) throw new Error(`row ${i} has ${r.length} features, not ${F}`);
      for (let f = 0; f < F; f++) rows[i * F + f] = r[f] as number;
    });
    const sum = new Float64Array(n);
    const sumSq = new Float64Array(n);
    // Trees outermost: one tree's arrays stay in cache for all rows.
    for (const tree of this.packed) accumulateTree(tree, rows, F, n, sum, sumSq);
    const k = this.trees.length;
    const mean: number[] = new Array<number>(n);
    const std: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const m = (sum[i] as number) / k;
      mean[i] = m;
      std[i] = Math.sqrt(Math.max(0, (sumSq[i] as number) / k - m * m));
    }
    return { mean, std };
  }

  /**
   * Out-of-bag predictions for the training rows of the last fit (NaN where a row was never
   * out of bag, e.g. all rows without bootstrap). Empty for a forest loaded with fromJSON.
   */
  oobPredictions(): number[] {
    return this.oob ? Array.from(this.oob) : [];
  }

  toJSON(): ForestJson {
    const o = this.options;
    return {
      kind: 'random-forest-regressor',
      options: { ...o, maxDepth: Number.isFinite(o.maxDepth) ? o.maxDepth : null },
      nFeatures: this.nFeatures,
      trees: this.trees.map((t) => ({
        feature: Array.from(t.feature),
        threshold: Array.from(t.threshold),
        left: Array.from(t.left),
        right: Array.from(t.right),
        value: Array.from(t.value),
      })),
    };
  }

  static fromJSON(json: unknown): RandomForestRegressor {
    if (!isRecord(json) || json.kind !== 'random-forest-regressor') {
      throw new Error('not a stored random forest (kind "random-forest-regressor" expected)');
    }
    if (!isRecord(json.options)) throw new Error('stored random forest: options missing');
    const opts = json.options;
    const forest = new RandomForestRegressor({
      ...(opts as Partial<ForestOptions>),
      maxDepth: opts.maxDepth === null ? Infinity : (opts.maxDepth as number),
    });
    const nFeatures = json.nFeatures;
    if (typeof nFeatures !== 'number' || !Number.isInteger(nFeatures) || nFeatures < 1) {
      throw new Error('stored random forest: nFeatures must be a positive integer');
    }
    if (!Array.isArray(json.trees) || json.trees.length === 0) {
      throw new Error('stored random forest: trees must be a non-empty array');
    }
    forest.trees = json.trees.map((t: unknown, i: number) => treeFromJson(t, nFeatures, i));
    forest.packed = forest.trees.map(packTree);
    forest.nFeatures = nFeatures;
    return forest;
  }
}

/** Features drawn per split for an option and a feature count. */
function resolveMaxFeatures(v: ForestOptions['maxFeatures'], nFeatures: number): number {
  if (v === 'all') return nFeatures;
  if (v === 'sqrt') return Math.max(1, Math.floor(Math.sqrt(nFeatures)));
  if (v === 'third') return Math.max(1, Math.floor(nFeatures / 3));
  if (v < 1) return Math.max(1, Math.floor(v * nFeatures));
  return Math.min(nFeatures, v);
}

function validOptions(o: ForestOptions): ForestOptions {
  const int = (name: keyof ForestOptions, v: unknown, min: number): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      throw new Error(`random forest option ${name} must be an integer >= ${min}, got ${String(v)}`);
    }
  };
  int('nEstimators', o.nEstimators, 1);
  int('minSamplesLeaf', o.minSamplesLeaf, 1);
  int('minSamplesSplit', o.minSamplesSplit, 2);
  if (o.maxDepth !== Infinity) int('maxDepth', o.maxDepth, 0);
  int('seed', o.seed, -2147483648);
  const mf: unknown = o.maxFeatures;
  const okRule = mf === 'sqrt' || mf === 'third' || mf === 'all';
  const okNumber = typeof mf === 'number' && ((mf > 0 && mf < 1) || (Number.isInteger(mf) && mf >= 1));
  if (!okRule && !okNumber) {
    throw new Error(
      `random forest option maxFeatures must be 'sqrt', 'third', 'all', a count or a fraction, got ${String(mf)}`,
    );
  }
  if (typeof o.bootstrap !== 'boolean') throw new Error('random forest option bootstrap must be a boolean');
  return { ...o };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numbers(t: Record<string, unknown>, key: keyof TreeJson, where: string): number[] {
  const v = t[key];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new Error(`${where}: ${key} must be an array of finite numbers`);
  }
  return v as number[];
}

/** Checks one stored tree: equal lengths, children after their parent, features in range. */
function treeFromJson(t: unknown, nFeatures: number, i: number): FlatTree {
  const where = `stored random forest, tree ${i}`;
  if (!isRecord(t)) throw new Error(`${where}: not an object`);
  const feature = numbers(t, 'feature', where);
  const threshold = numbers(t, 'threshold', where);
  const left = numbers(t, 'left', where);
  const right = numbers(t, 'right', where);
  const value = numbers(t, 'value', where);
  const n = feature.length;
  if (n === 0 || [threshold, left, right, value].some((a) => a.length !== n)) {
    throw new Error(`${where}: node arrays must be non-empty and of equal length`);
  }
  for (let k = 0; k < n; k++) {
    const f = feature[k] as number;
    if (!Number.isInteger(f) || f < -1 || f >= nFeatures) throw new Error(`${where}: node ${k} has feature ${f}`);
    if (f === -1) continue;
    for (const c of [left[k] as number, right[k] as number]) {
      if (!Number.isInteger(c) || c <= k || c >= n) throw new Error(`${where}: node ${k} has child ${c}`);
    }
    if (Math.fround(threshold[k] as number) !== threshold[k]) {
      throw new Error(`${where}: node ${k} threshold is not a float32 value`);
    }
  }
  return {
    feature: Int32Array.from(feature),
    threshold: Float32Array.from(threshold),
    left: Int32Array.from(left),
    right: Int32Array.from(right),
    value: Float64Array.from(value),
  };
}
