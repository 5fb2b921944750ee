/** The tensor-parallel benchmark's search problem: 128 layers on 8 GPUs of 4 kinds, batch 64, layers that split. */
import { randomProblem } from '../../test/unit/core/planner/random-problem.js';
import type { PlanProblem } from '../../src-main/core/planner/types.js';

export function tensorParallelProblem(): PlanProblem {
  const big = randomProblem(11, {
    layers: 128,
    devices: 8,
    mode: 'training',
    batch: 64,
    twins: true,
    tensor: true,
    memoryShare: [0.3, 0.9],
  });
  big.devices = big.devices.map((d) => ({ ...d, kind: 'gpu' }));
  return big;
}
