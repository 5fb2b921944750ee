/**
 * Predictors as ONNX models (ai.onnx.ml) that ONNX Runtime and other tools run. Pure.
 *
 * Graph: inputs `features` [N, F] float32 (featureVector, in FEATURE_NAMES order) and
 * `floor_us` [N, 1] float32 (floorUs: roofline bound + dispatch); outputs
 * `time_us` = floor_us * Exp(Max(raw, min_log_ratio)) and `raw` [N, 1], the predictor's log(time / floor)
 * before the clamp. min_log_ratio is the predictor's own clamp (its minLogRatio, the one
 * ForestPredictor and LinearPredictor apply): log(0.8), or the lowest log ratio of its training
 * data where that is lower (learnedMinLogRatio); MIN_LOG_RATIO when none is given.
 *
 * Forest thresholds: our trees send a row left when fround(x) <= t, with t a float32 value
 * (regression-tree.ts); TreeEnsembleRegressor's BRANCH_LEQ with that t (exact in float32)
 * does the same on float32 inputs, so every row reaches the same leaves. Only the leaf values
 * (float32 target_weights) and ORT's float32 averaging differ from the in-app float64 mean.
 */
import { attr, encodeModel, OnnxDataType } from '../onnx/model-builder.js';
import type { AttributeDef, NodeDef, TensorDef } from '../onnx/model-builder.js';
import { MIN_LOG_RATIO } from './features.js';
import { VARIANT_ROUTER, type RouteNode } from './kernel-variant.js';
import { RandomForestRegressor, type ForestJson } from './random-forest.js';

const ML = 'ai.onnx.ml';

const ONNX_FORMULA =
  'time_us = floor_us * exp(max(raw, min_log_ratio)); raw = model estimate of log(time_us / floor_us); min_log_ratio = log(0.8) or the lowest ratio in the training data';

/** A forest (fitted, or its stored JSON) and the op bias added to its raw output. */
export interface ExportPart {
  forest: ForestJson | RandomForestRegressor;
  /** Coefficients over the features; non-zero only on one-hot features, at most one set per row (the op's). */
  opBias?: readonly number[];
}

/** The shared forest and the kernel variants' own (ForestPredictor.parts); rows route by VARIANT_ROUTER. */
export interface ExportParts {
  shared: ExportPart;
  variants?: ReadonlyMap<string, ExportPart>;
}

/**
 * A forest predictor as one TreeEnsembleRegressor (SUM): every tree of a part sits under a
 * copy of the variant router, its leaves weighted 1 / (the part's tree count) where a row's
 * variant belongs to the part and 0 elsewhere; each part's op bias is one more tree (router,
 * then a chain over the op features). A bare forest is a part of its own, no router.
 */
export function forestToOnnx(
  forest: ForestJson | RandomForestRegressor | ExportParts,
  featureNames: readonly string[],
  minLogRatio = MIN_LOG_RATIO,
): Uint8Array {
  const parts: ExportParts = 'shared' in forest ? forest : { shared: { forest } };
  const owned = [...(parts.variants?.keys() ?? [])];
  const all: [string | null, ExportPart][] = [[null, parts.shared], ...[...(parts.variants ?? [])]];
  const ensemble = new EnsembleWriter();
  let trees = 0;
  for (const [variant, part] of all) {
    const rf = part.forest instanceof RandomForestRegressor ? part.forest : RandomForestRegressor.fromJSON(part.forest);
    if (rf.featureCount !== featureNames.length) {
      throw new Error(`forest has ${rf.featureCount} features but ${featureNames.length} names were given`);
    }
    if (part.opBias && part.opBias.length !== featureNames.length) {
      throw new Error(`${part.opBias.length} op-bias coefficients but ${featureNames.length} feature names`);
    }
    // The shared part takes every variant without a forest of its own.
    const member = (v: string): boolean => (variant === null ? !owned.includes(v) : v === variant);
    const routed = (body: (w: TreeWriter) => number) => (w: TreeWriter) =>
      owned.length ? w.route(VARIANT_ROUTER, (v) => (member(v) ? body(w) : w.leaf(0))) : body(w);
    const scale = 1 / rf.treeCount;
    for (const tree of rf.fittedTrees) ensemble.tree(routed((w) => w.graft(tree, 0, scale)));
    const bias = part.opBias ?? [];
    const biased = bias.flatMap((b, j) => (b !== 0 ? [j] : []));
    if (biased.length) ensemble.tree(routed((w) => w.chain(biased, bias)));
    trees += rf.treeCount;
  }
  const regressor = { opType: 'TreeEnsembleRegressor', attributes: ensemble.attributes() };
  const metadata = { trees: String(trees), ...(owned.length ? { variants: owned.join(',') } : {}) };
  return timeModel('forest', regressor, featureNames, minLogRatio, metadata);
}

interface FittedTree {
  feature: ArrayLike<number>;
  threshold: ArrayLike<number>;
  left: ArrayLike<number>;
  right: ArrayLike<number>;
  value: ArrayLike<number>;
}

/** One tree's nodes, ids in pre-order; a builder returns the id of the node it made. */
class TreeWriter {
  readonly nodes: { feature: number; threshold: number; le: number; gt: number; weight: number | null }[] = [];

  leaf(weight: number): number {
    this.nodes.push({ feature: 0, threshold: 0, le: 0, gt: 0, weight });
    return this.nodes.length - 1;
  }

  branch(feature: number, threshold: number, le: () => number, gt: () => number): number {
    const id = this.nodes.length;
    const node = { feature, threshold, le: 0, gt: 0, weight: null };
    this.nodes.push(node);
    node.le = le();
    node.gt = gt();
    return id;
  }

  /** A fitted tree from node i, leaf values times scale. */
  graft(t: FittedTree, i: number, scale: number): number {
    const f = t.feature[i] as number;
    if (f < 0) return this.leaf((t.value[i] as number) * scale);
    const [l, r] = [t.left[i] as number, t.right[i] as number];
    return this.branch(
      f,
      t.threshold[i] as number,
      () => this.graft(t, l, scale),
      () => this.graft(t, r, scale),
    );
  }

  /** The router, each variant's leaf replaced by what at(variant) builds. */
  route(n: RouteNode, at: (variant: string) => number): number {
    if ('variant' in n) return at(n.variant);
    return this.branch(
      n.feature,
      n.threshold,
      () => this.route(n.le, at),
      () => this.route(n.gt, at),
    );
  }

  /** The bias of the one set feature among js (one-hot features): x[j] > 0.5 -> coefficient[j]. */
  chain(js: readonly number[], coefficient: readonly number[], k = 0): number {
    const j = js[k];
    if (j === undefined) return this.leaf(0);
    return this.branch(
      j,
      0.5,
      () => this.chain(js, coefficient, k + 1),
      () => this.leaf(coefficient[j] as number),
    );
  }
}

/** TreeEnsembleRegressor attributes, trees added one by one. */
class EnsembleWriter {
  private readonly n = {
    treeIds: [] as number[],
    nodeIds: [] as number[],
    featureIds: [] as number[],
    values: [] as number[],
    modes: [] as string[],
    trueIds: [] as number[],
    falseIds: [] as number[],
  };
  private readonly t = {
    treeIds: [] as number[],
    nodeIds: [] as number[],
    ids: [] as number[],
    weights: [] as number[],
  };
  private count = 0;

  tree(build: (w: TreeWriter) => number): void {
    const w = new TreeWriter();
    build(w);
    const treeId = this.count++;
    w.nodes.forEach((node, id) => {
      const leaf = node.weight !== null;
      this.n.treeIds.push(treeId);
      this.n.nodeIds.push(id);
      this.n.featureIds.push(node.feature);
      this.n.values.push(node.threshold);
      this.n.modes.push(leaf ? 'LEAF' : 'BRANCH_LEQ');
      this.n.trueIds.push(node.le);
      this.n.falseIds.push(node.gt);
      if (leaf) {
        this.t.treeIds.push(treeId);
        this.t.nodeIds.push(id);
        this.t.ids.push(0);
        this.t.weights.push(node.weight as number);
      }
    });
  }

  attributes(): AttributeDef[] {
    const { n, t } = this;
    return [
      attr.int('n_targets', 1),
      attr.string('aggregate_function', 'SUM'),
      attr.string('post_transform', 'NONE'),
      attr.ints('nodes_treeids', n.treeIds),
      attr.ints('nodes_nodeids', n.nodeIds),
      attr.ints('nodes_featureids', n.featureIds),
      attr.floats('nodes_values', n.values),
      attr.strings('nodes_modes', n.modes),
      attr.ints('nodes_truenodeids', n.trueIds),
      attr.ints('nodes_falsenodeids', n.falseIds),
      attr.ints('target_treeids', t.treeIds),
      attr.ints('target_nodeids', t.nodeIds),
      attr.ints('target_ids', t.ids),
      attr.floats('target_weights', t.weights),
    ];
  }
}

/** The linear predictor, raw = intercept + sum(coefficients * features) as a LinearRegressor model. */
export function linearToOnnx(
  coefficients: readonly number[],
  intercept: number,
  featureNames: readonly string[],
  minLogRatio = MIN_LOG_RATIO,
): Uint8Array {
  if (coefficients.length !== featureNames.length) {
    throw new Error(`${coefficients.length} coefficients but ${featureNames.length} feature names`);
  }
  if (![...coefficients, intercept].every(Number.isFinite))
    throw new Error('linear predictor has non-finite coefficients');
  const attributes = [
    attr.floats('coefficients', coefficients),
    attr.floats('intercepts', [intercept]),
    attr.int('targets', 1),
    attr.string('post_transform', 'NONE'),
  ];
  return timeModel('linear', { opType: 'LinearRegressor', attributes }, featureNames, minLogRatio, {});
}

/** features -> ml regressor -> raw; time_us = floor_us * Exp(Max(raw, clamp)). */
function timeModel(
  kind: string,
  regressor: { opType: string; attributes: readonly AttributeDef[] },
  featureNames: readonly string[],
  minLogRatio: number,
  extraMetadata: Record<string, string>,
): Uint8Array {
  const F = featureNames.length;
  const clamp: TensorDef = {
    name: 'min_log_ratio',
    dataType: OnnxDataType.FLOAT,
    dims: [1],
    floatData: [minLogRatio],
  };
  const nodes: NodeDef[] = [
    { ...regressor, name: kind, domain: ML, inputs: ['features'], outputs: ['raw'] },
    { opType: 'Max', name: 'clamp', inputs: ['raw', 'min_log_ratio'], outputs: ['clamped'] },
    { opType: 'Exp', name: 'ratio', inputs: ['clamped'], outputs: ['ratio'] },
    { opType: 'Mul', name: 'time', inputs: ['floor_us', 'ratio'], outputs: ['time_us'] },
  ];
  return encodeModel({
    includeMlOpset: true,
    docString:
      `pipeDejavu ${kind} execution-time predictor. ${ONNX_FORMULA}. ` +
      `features (float32 [N, ${F}]): ${featureNames.join(', ')}.`,
    metadataProps: {
      'pipedejavu.predictor': kind,
      'pipedejavu.formula': ONNX_FORMULA,
      'pipedejavu.feature_names': JSON.stringify(featureNames),
      ...Object.fromEntries(Object.entries(extraMetadata).map(([k, v]) => [`pipedejavu.${k}`, v])),
    },
    graph: {
      name: `pipedejavu_${kind}`,
      nodes,
      initializers: [clamp],
      inputs: [
        { name: 'features', elemType: OnnxDataType.FLOAT, dims: ['N', F] },
        { name: 'floor_us', elemType: OnnxDataType.FLOAT, dims: ['N', 1] },
      ],
      outputs: [
        { name: 'time_us', elemType: OnnxDataType.FLOAT, dims: ['N', 1] },
        { name: 'raw', elemType: OnnxDataType.FLOAT, dims: ['N', 1] },
      ],
    },
  });
}
