/** One measured kernel as a point of its device's roofline (the services compute it, the API shows it). */
export interface RooflinePoint {
  kernel: string;
  family: string;
  op: string;
  dtype: string;
  flops: number;
  bytes: number;
  timeUs: number;
  /** Achieved GFLOP/s (0 for pure data movement). */
  gflops: number;
  /** Achieved GB/s of the minimum traffic. */
  gbps: number;
  /** FLOP per byte. */
  intensity: number;
}
