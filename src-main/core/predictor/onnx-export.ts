/**
 * Predictors as ONNX models (ai.onnx.ml) that ONNX Runtime and other tools run. Pure.
 *
 * Graph: inputs `features` [N, F] float32 (featureVector, in FEATURE_NAMES order) and
 * `floor_us` [N, 1] float32 (floorUs: roofline bound + dispatch); outputs
 * `time_us` = floor_us * Exp(Max(raw, log(0.8))) and `raw` [N, 1], the model's log(time / floor)
 * before the clamp (the clamp ForestPredictor and LinearPredictor apply).
 *
 * Forest thresholds: our trees send a row left when fround(x) <= t, with t a float32 value
 * (regression-tree.ts); TreeEnsembleRegressor's BRANCH_LEQ with that t (exact in float32)
 * does the same on float32 inputs, so every row reaches the same leaves. Only the leaf values
 * (float32 target_weights) and ORT's float32 averaging differ from the in-app float64 mean.
 */
import {
  attr,
  encodeModel,
  OnnxDataType,
  type AttributeDef,
  type NodeDef,
  type TensorDef,
} from '../onnx/model-builder.js';
import { MIN_LOG_RATIO } from './features.js';
import { RandomForestRegressor, type ForestJson } from './random-forest.js';

const ML = 'ai.onnx.ml';

export const ONNX_FORMULA =
  'time_us = floor_us * exp(max(raw, min_log_ratio)); raw = model estimate of log(time_us / floor_us); min_log_ratio = log(0.8) or the lowest ratio in the training data';

/** A forest (fitted, or its stored JSON) as a TreeEnsembleRegressor model. */
export function forestToOnnx(
  forest: ForestJson | RandomForestRegressor,
  featureNames: readonly string[],
  minLogRatio = MIN_LOG_RATIO,
  opBias?: readonly number[],
): Uint8Array {
  const rf = forest instanceof RandomForestRegressor ? forest : RandomForestRegressor.fromJSON(forest);
  if (rf.featureCount !== featureNames.length) {
    throw new Error(`forest has ${rf.featureCount} features but ${featureNames.length} names were given`);
  }
  const n = {
    treeIds: [] as number[],
    nodeIds: [] as number[],
    featureIds: [] as number[],
    values: [] as number[],
    modes: [] as string[],
    trueIds: [] as number[],
    falseIds: [] as number[],
  };
  const t = { treeIds: [] as number[], nodeIds: [] as number[], ids: [] as number[], weights: [] as number[] };
  rf.fittedTrees.forEach((tree, treeId) => {
    for (let i = 0; i < tree.feature.length; i++) {
      const f = tree.feature[i] as number;
      const leaf = f < 0;
      n.treeIds.push(treeId);
      n.nodeIds.push(i);
      n.featureIds.push(leaf ? 0 : f);
      n.values.push(leaf ? 0 : (tree.threshold[i] as number));
      n.modes.push(leaf ? 'LEAF' : 'BRANCH_LEQ');
      n.trueIds.push(leaf ? 0 : (tree.left[i] as number));
      n.falseIds.push(leaf ? 0 : (tree.right[i] as number));
      if (leaf) {
        t.treeIds.push(treeId);
        t.nodeIds.push(i);
        t.ids.push(0);
        t.weights.push(tree.value[i] as number);
      }
    }
  });
  const ensemble: AttributeDef[] = [
    attr.int('n_targets', 1),
    attr.string('aggregate_function', 'AVERAGE'),
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
  if (opBias && opBias.length !== featureNames.length) {
    throw new Error(`${opBias.length} op-bias coefficients but ${featureNames.length} feature names`);
  }
  const regressor = { opType: 'TreeEnsembleRegressor', attributes: ensemble };
  return timeModel('forest', regressor, featureNames, minLogRatio, { trees: String(rf.treeCount) }, opBias);
}

/** A linear model raw = intercept + sum(coefficients * features) as a LinearRegressor model. */
export function linearToOnnx(
  coefficients: readonly number[],
  intercept: number,
  featureNames: readonly string[],
  minLogRatio = MIN_LOG_RATIO,
): Uint8Array {
  if (coefficients.length !== featureNames.length) {
    throw new Error(`${coefficients.length} coefficients but ${featureNames.length} feature names`);
  }
  if (![...coefficients, intercept].every(Number.isFinite)) throw new Error('linear model has non-finite coefficients');
  const attributes = [
    attr.floats('coefficients', coefficients),
    attr.floats('intercepts', [intercept]),
    attr.int('targets', 1),
    attr.string('post_transform', 'NONE'),
  ];
  return timeModel('linear', { opType: 'LinearRegressor', attributes }, featureNames, minLogRatio, {});
}

/**
 * features -> ml regressor (+ a LinearRegressor over the features when a bias is given) ->
 * raw; time_us = floor_us * Exp(Max(raw, clamp)).
 */
function timeModel(
  kind: string,
  regressor: { opType: string; attributes: readonly AttributeDef[] },
  featureNames: readonly string[],
  minLogRatio: number,
  extraMetadata: Record<string, string>,
  bias?: readonly number[],
): Uint8Array {
  const F = featureNames.length;
  const clamp: TensorDef = {
    name: 'min_log_ratio',
    dataType: OnnxDataType.FLOAT,
    dims: [1],
    floatData: [minLogRatio],
  };
  const biased = bias?.some((v) => v !== 0) ?? false;
  const biasAttributes = [
    attr.floats('coefficients', bias ?? []),
    attr.floats('intercepts', [0]),
    attr.int('targets', 1),
    attr.string('post_transform', 'NONE'),
  ];
  const nodes: NodeDef[] = [
    { ...regressor, name: kind, domain: ML, inputs: ['features'], outputs: [biased ? 'model_raw' : 'raw'] },
    ...(biased
      ? [
          {
            opType: 'LinearRegressor',
            name: 'op_bias',
            domain: ML,
            inputs: ['features'],
            outputs: ['bias'],
            attributes: biasAttributes,
          },
          { opType: 'Add', name: 'biased', inputs: ['model_raw', 'bias'], outputs: ['raw'] },
        ]
      : []),
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
