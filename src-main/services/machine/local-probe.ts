/** The real probe dependencies: systeminformation and nvidia-smi on this machine. */
import { probeNvidia } from '../../adapters/nvidia-smi/probe-nvidia.js';
import { probeSystem } from '../../adapters/system/probe-system.js';
import type { ProbeDeps } from './probe-service.js';

export const localProbeDeps: ProbeDeps = {
  probeSystem,
  probeNvidia: (opts) => probeNvidia(opts),
  now: () => new Date(),
};
