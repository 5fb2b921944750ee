import { describe, expect, it } from 'vitest';
import { stageMemory } from '../../../../src-main/core/engines/engine-memory.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { deployment } from './engine-fixtures.js';

describe('stageMemory', () => {
  const v04 = engineRules('vllm', { version: '0.4.1' });
  const v06 = engineRules('vllm', { version: '0.6.0' });

  it('gives vLLM 0.4-0.5 on one GPU its utilization share less weights and activations, nothing reserved beside', () => {
    const m = stageMemory(deployment({ engine: v04, gpu: 'RTX 3090' }), 0);
    const card = 24 * 2 ** 30;
    expect(m.reservedBytes).toBe(0);
    expect(m.kvBytes).toBeCloseTo(0.9 * card - m.weightBytes - m.activationBytes, 0);
  });

  it('keeps the reserve where NCCL communicators come within the profile (tensor parallel), and from 0.6 on', () => {
    expect(stageMemory(deployment({ engine: v04, tp: 2 }), 0).reservedBytes).toBe(v04.memory.reservedBytes);
    expect(stageMemory(deployment({ engine: v06, gpu: 'RTX 3090' }), 0).reservedBytes).toBe(v06.memory.reservedBytes);
    expect(v04.memory.reservedBytes).toBeGreaterThan(0);
  });
});
