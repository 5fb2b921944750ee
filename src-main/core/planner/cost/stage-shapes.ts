/**
 * The shapes stage-cost.ts works in: a stage's replicas, where one device of a stage sits, the
 * split of a microbatch over a stage, and DDP's gradient bucket. Pure.
 */

/** The replicas of a stage of tensor-parallel degree tp: devices [r·tp, (r+1)·tp). */
export function replicasOf<T>(devices: readonly T[], tp: number): T[][] {
  const out: T[][] = [];
  for (let r = 0; r < devices.length; r += tp) out.push(devices.slice(r, r + tp));
  return out;
}

/** Where one device of a stage sits: its layers, tensor-parallel degree, replicas and samples. */
export interface StageDeviceLoad {
  from: number;
  to: number;
  tp: number;
  /** Data-parallel replicas of the stage (ZeRO shards over them). */
  replicas: number;
  /** Samples of one microbatch this device's replica processes. */
  samples: number;
  inFlight: number;
  microbatches: number;
}

/**
 * The gradient bucket DDP reduces as one message (torch DistributedDataParallel's bucket_cap_mb =
 * 25): the last one is reduced after the backward pass ends, whatever the overlap.
 */
export const GRADIENT_BUCKET_BYTES = 25 * 2 ** 20;

export interface StageSplit {
  /** Per-microbatch compute time of the stage (slowest replica), µs. */
  timeUs: number;
  /** Samples of one microbatch per device (same order as the devices). */
  shares: number[];
  /** Position of the slowest replica. */
  slowest: number;
}
