import { describe, expect, it } from 'vitest';
import { gpuClass } from '../../../../../src-main/core/planner/cost/gpu-class.js';
import { GPU_DATASHEETS } from '../../../../../src-main/core/planner/cost/datasheets.js';

describe('gpuClass', () => {
  it('reads GeForce cards as consumer, other RTX cards as workstation, the rest as datacenter', () => {
    expect(gpuClass('NVIDIA GeForce RTX 4090')).toBe('consumer');
    expect(gpuClass('NVIDIA RTX A6000')).toBe('workstation');
    expect(gpuClass('NVIDIA RTX PRO 6000 Blackwell Workstation Edition')).toBe('workstation');
    expect(gpuClass('NVIDIA H100 SXM5 80GB')).toBe('datacenter');
    expect(gpuClass('NVIDIA L40S')).toBe('datacenter');
  });
  it('finds every class among the datasheets', () => {
    expect(new Set(GPU_DATASHEETS.map((g) => gpuClass(g.name)))).toEqual(
      new Set(['consumer', 'workstation', 'datacenter']),
    );
  });
});
