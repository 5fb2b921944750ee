/**
 * Nodes ONNX Runtime's CPU EP runs on one thread whatever its intra-op thread count: their
 * kernels have no parallel loop. On a CPU profiled at more threads, such a node takes what it
 * takes at 1 thread, and the predictor, which learns a thread count's speed-up from kernels
 * that have one, priced them faster (PaddleOCR det's nearest Resizes at 2 threads: 0.76 ms
 * predicted against 2.22 ms measured, 2.20 ms at 1 thread). Measured on the 2-vCPU Zen 4
 * guest (profiled node, medians, 1 then 2 threads, ORT 1.30):
 *   nearest Resize 64x40x40 by 4: 1778 and 1793 µs; 16x50x50 by 8: 3040 and 3068 µs;
 *     32x100x100 by 2: 223 and 224 µs; the quick suite's 256x20x20 by 2: 37 and 39 µs
 *   BatchNormalization (inference) 24x320x320: 776 and 753 µs; 32x112x112: 43 and 49 µs
 * A linear or cubic Resize (FLOPs per element) and the NCHWc Upsample have parallel loops.
 * Pure.
 */
import type { WorkloadNode } from './types.js';

export function runsOnOneThread(n: WorkloadNode): boolean {
  switch (n.opType) {
    case 'Resize':
    case 'Upsample':
      return n.flops === 0 && !n.kernel?.shape['nchwc'];
    case 'BatchNormalization':
      return n.family === 'elementwise'; // inference; in training mode it is a normalization
    default:
      return false;
  }
}
