/** nccl-tests results over devices of a plan (measured-network.ts): which collectives replace the model. */
import { describe, expect, it } from 'vitest';
import { measuredCollectives } from '../../../../../src-main/core/planner/problem/measured-network.js';
import type { PlanDevice } from '../../../../../src-main/core/planner/types.js';
import { ncclTwoRanks } from '../../../../helpers/gpu-profile.js';

const HOST = 'box';
const devices = [0, 1].map((i) => ({ id: `${HOST}/cuda:${i}`, machine: HOST }) as PlanDevice);

/** The helper's all_reduce_perf output (30 µs + S / 2 GB/s) renamed as another collective's. */
const as = (op: string): string => ncclTwoRanks(HOST).replace('all_reduce_perf', `${op}_perf`);

describe('measured collectives', () => {
  it('takes all_gather and reduce_scatter results as their own collectives', () => {
    const warnings: string[] = [];
    const measured = measuredCollectives(
      [
        { source: 'ag.txt', text: as('all_gather') },
        { source: 'rs.txt', text: as('reduce_scatter') },
        { source: 'ar.txt', text: as('all_reduce') },
      ],
      devices,
      warnings,
    );
    expect(measured.map((m) => m.op)).toEqual(['all_gather', 'reduce_scatter', 'all_reduce']);
    expect(measured[0]?.devices).toEqual(['box/cuda:0', 'box/cuda:1']);
    expect(measured[0]?.fit.gbps).toBeCloseTo(2, 2);
    expect(warnings[0]).toMatch(
      /^ag\.txt: measured all-gather over 2 devices \(30\.0 µs \+ 2\.0 GB\/s\) replaces the model$/,
    );
  });

  it('names the collectives it does not use', () => {
    const warnings: string[] = [];
    expect(measuredCollectives([{ source: 'bc.txt', text: as('broadcast') }], devices, warnings)).toEqual([]);
    expect(warnings).toEqual([
      'bc.txt: broadcast results are not used (the planner prices all_reduce, all_gather, reduce_scatter only)',
    ]);
  });
});
