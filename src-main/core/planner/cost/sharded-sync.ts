/**
 * ZeRO-3 / FSDP FULL_SHARD: the collectives of one microbatch that compute does not hide, per
 * layer l = 0..k−1 of a stage (stage-cost.ts's file comment). Pure.
 *
 * g_l: the all-gather of layer l's weights (before its forward, and again before its backward);
 * r_l: the reduce-scatter of its gradients after its backward; f_l, b_l: its forward and backward
 * compute on the replica with the fewest samples. The next layer's collectives are prefetched
 * behind this layer's compute, so only what exceeds it is exposed:
 *   forward  = g_0 + Σ_{l=1}^{k−1} max(0, g_l − f_{l−1})
 *   backward = g_{k−1} + Σ_{l=0}^{k−1} max(0, [l>0]·g_{l−1} + [l<k−1]·r_{l+1} − b_l) + r_0
 */
export function shardedExposedUs(
  gather: readonly number[],
  scatter: readonly number[],
  forward: readonly number[],
  backward: readonly number[],
): number {
  const k = gather.length;
  const at = (a: readonly number[], i: number): number => (i >= 0 && i < k ? (a[i] as number) : 0);
  let exposed = at(gather, 0);
  for (let i = 1; i < k; i++) exposed += Math.max(0, at(gather, i) - at(forward, i - 1));
  exposed += at(gather, k - 1) + at(scatter, 0);
  for (let i = 0; i < k; i++) {
    const prefetched = at(gather, i - 1) + (i < k - 1 ? at(scatter, i + 1) : 0);
    exposed += Math.max(0, prefetched - at(backward, i));
  }
  return exposed;
}
