/**
 * Kernel variants: the groups of ops the forest predictor gives a forest of their own, as
 * nn-Meter trains one predictor per kernel type (Zhang et al., MobiSys 2021). One forest over
 * every conv averages kinds of kernel whose times relate to the roofline floor in different
 * ways: on the 2-vCPU Zen 4 guest, plain 1-D convs (im2col + SGEMM) ran at 1.1x their floor
 * when large, 1-D depthwise ones (one SGEMM call per group) at 3-36x, transposed ones (a GEMM
 * and a col2im) at 2-4.5x, and the plain 1-D convs' out-of-bag predictions came out 6-16% high
 * on five profiles, pulled up by their neighbours in the shared trees.
 *
 * The router reads only the feature vector (families, layout flags, log2 groups), so the app
 * and the ONNX export send a row to the same forest. Pure.
 */
import { FEATURE_NAMES } from './features.js';
import { KERNEL_FAMILIES } from '../kernels/types.js';

/** A split: rows with x[feature] <= threshold go to `le`, the others to `gt`. */
export interface RouteSplit {
  feature: number;
  threshold: number;
  le: RouteNode;
  gt: RouteNode;
}
/** A router node: a split, or a leaf naming the variant. */
export type RouteNode = RouteSplit | { variant: string };

const index = (name: string): number => {
  const i = FEATURE_NAMES.indexOf(name);
  if (i < 0) throw new Error(`no feature ${name}`);
  return i;
};
const split = (name: string, threshold: number, le: RouteNode, gt: RouteNode): RouteSplit => ({
  feature: index(name),
  threshold,
  le,
  gt,
});
const leaf = (variant: string): RouteNode => ({ variant });

/** A variant for rows of no family (none is set): the catch-all. */
export const OTHER_VARIANT = 'other';

/**
 * Convs: transposed; 1-D with groups (log2(1 + groups) > 1.2, i.e. groups >= 2); plain 1-D;
 * depthwise 2-D; every other 2-D conv. Other families are one variant each.
 */
const CONV_ROUTE: RouteNode = split(
  'conv_transpose',
  0.5,
  split(
    'conv_1d',
    0.5,
    split('conv_depthwise', 0.5, leaf('conv'), leaf('conv_depthwise')),
    split('log2_groups', 1.2, leaf('conv1d'), leaf('conv1d_grouped')),
  ),
  leaf('conv_transpose'),
);

/**
 * Data movement: ORT's nearest Resize has a fast path at scale 2 only; at other scales (3 and
 * up: log2(1 + scale) > 1.8) it runs a generic loop at several times the time per output
 * element (about 1.1 ns on the 2-vCPU Zen 4 guest, one thread whatever the thread count), a
 * kernel of its own. In the shared datamove forest the trees matched those rows by size to
 * scale-2 resizes and transposes: a scale-8 resize writing 0.6 M elements was priced at
 * 0.16-0.2 ms against 0.67 ms measured, from kernels of 1.6-6.6 M elements at 1.1 ns each.
 */
const DATAMOVE_ROUTE: RouteNode = split('log2_scale', 1.8, leaf('datamove'), leaf('resize_generic'));

/**
 * Products: a batched product (B >= 2: log2(1 + B) > 1.2), whose operands are both activations,
 * packs its B operand on every run and batch; a linear layer (B = 1) multiplies by a constant
 * weight that ONNX Runtime packed once, when the session was made. In one gemm forest the six
 * decode attention products of the quick suite (a few query rows over a long cache, 3-8x their
 * floor) pulled the trees' leaves for large linear layers down: on a quiet Zen 4 profile
 * (2026-11-30) a 128 x 1280 x 3456 product was priced at 77 GFLOP/s with them and 98 without
 * them, where prompts through such layers ran at about 108 (bench/runs/cold-weights.md).
 */
const GEMM_ROUTE: RouteNode = split('log2_B', 1.2, leaf('gemm'), leaf('gemm_batched'));

function familyRoute(families: readonly string[]): RouteNode {
  const [first, ...rest] = families;
  if (first === undefined) return leaf(OTHER_VARIANT);
  const own =
    first === 'conv' ? CONV_ROUTE : first === 'datamove' ? DATAMOVE_ROUTE : first === 'gemm' ? GEMM_ROUTE : leaf(first);
  return split(`family_${first}`, 0.5, familyRoute(rest), own);
}

export const VARIANT_ROUTER: RouteNode = familyRoute(KERNEL_FAMILIES);

/** Every variant the router can name, in a fixed order. */
export const VARIANTS: readonly string[] = (() => {
  const out: string[] = [];
  const walk = (n: RouteNode): void => {
    if ('variant' in n) {
      if (!out.includes(n.variant)) out.push(n.variant);
    } else {
      walk(n.le);
      walk(n.gt);
    }
  };
  walk(VARIANT_ROUTER);
  return out;
})();

/** The variant of a feature vector (featureVector's order). */
export function routeVariant(x: readonly number[]): string {
  let n = VARIANT_ROUTER;
  while (!('variant' in n)) n = Math.fround(x[n.feature] ?? 0) <= n.threshold ? n.le : n.gt;
  return n.variant;
}
