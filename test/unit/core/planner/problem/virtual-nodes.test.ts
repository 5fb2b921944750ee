import { describe, expect, it } from 'vitest';
import { GPUS_PER_VIRTUAL_NODE, virtualNodes } from '../../../../../src-main/core/planner/problem/virtual-nodes.js';

describe('virtualNodes', () => {
  it('puts datasheet GPUs beside the measured devices when a machine is in the plan', () => {
    expect(virtualNodes(['H100 SXM5', 'H100 SXM5'], 'lab-ws')).toEqual({
      machines: ['lab-ws', 'lab-ws'],
      network: undefined,
    });
  });

  it('keeps up to one node of GPUs in "virtual" with no network', () => {
    const names = Array<string>(GPUS_PER_VIRTUAL_NODE).fill('A100 SXM4 80GB');
    expect(virtualNodes(names, undefined)).toEqual({ machines: names.map(() => 'virtual'), network: undefined });
  });

  it('cuts more into nodes of eight linked by the generation’s InfiniBand', () => {
    const hopper = virtualNodes(Array<string>(12).fill('H100 SXM5'), undefined);
    expect(hopper.machines.filter((m) => m === 'virtual-1')).toHaveLength(8);
    expect(hopper.machines.filter((m) => m === 'virtual-2')).toHaveLength(4);
    expect(hopper.network).toBe('8x400Gb-IB');
    expect(virtualNodes(Array<string>(9).fill('A100 SXM4 80GB'), undefined).network).toBe('8x200Gb-IB');
  });
});
