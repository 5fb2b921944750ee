/** The Library's comparison table and charts, built from a `machine:compare` answer. */
import { describe, expect, it } from 'vitest';
import type { ComparedDeviceView, ComparisonView } from '../../../../src-main/api/view-models.js';
import { deviceIdLabel, deviceIdOf } from '../../../../src-main/core/domain/device-id.js';
import {
  barGroups,
  compareColumns,
  compareGroups,
  compareRows,
  roofSeries,
} from '../../../../src-renderer/src/lib/compare.js';

function dev(
  deviceKey: string,
  fp32: number,
  gbps: number,
  eff: Record<string, number>,
  threads: number | null = null,
) {
  const parts = { deviceKey, executionProvider: deviceKey === 'cpu' ? 'cpu' : 'cuda', threads };
  const d: ComparedDeviceView = {
    ...parts,
    id: deviceIdOf(parts),
    label: deviceIdLabel(parts),
    name: deviceKey === 'cpu' ? 'AMD Ryzen' : 'NVIDIA GeForce RTX 4080 SUPER',
    summary: {
      peakGflops: { fp32 },
      peakKernel: null,
      bandwidthGBps: gbps,
      dispatchOverheadUs: deviceKey === 'cpu' ? 2 : 8,
      ridgePoint: fp32 / gbps,
      h2d: null,
      d2h: null,
      kernels: 40,
    },
    familyEfficiency: eff,
  };
  return d;
}

const COMPARISON: ComparisonView = {
  machines: [
    { id: 'm1', label: 'ws', source: 'local', devices: [dev('cpu', 600, 60, { gemm: 0.8 }, 16)] },
    {
      id: 'm2',
      label: 'gpu-a',
      source: 'imported',
      devices: [dev('cuda:0', 40_000, 700, { gemm: 0.9, conv: 0.5 }), dev('cuda:1', 11_000, 450, { conv: 0.6 })],
    },
    { id: 'm3', label: 'empty', source: 'imported', devices: [] },
  ],
  workload: null,
};

describe('the comparison table', () => {
  it('has one column per device under its machine, and one for a machine without a profile', () => {
    expect(compareGroups(COMPARISON).map((g) => [g.label, g.span])).toEqual([
      ['ws', 1],
      ['gpu-a', 2],
      ['empty', 1],
    ]);
    expect(compareColumns(COMPARISON).map((c) => c.title)).toEqual(['cpu · 16t', 'cuda:0', 'cuda:1', 'no profile']);
  });

  it('lists peaks, bandwidth, ridge, dispatch and every family, the best of each row marked', () => {
    const rows = compareRows(COMPARISON);
    expect(rows.map((r) => r.key)).toEqual(['fp32', 'bandwidth', 'ridge', 'dispatch', 'family:conv', 'family:gemm']);
    const by = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(by.fp32?.cells).toEqual(['600 GFLOP/s', '40 TFLOP/s', '11 TFLOP/s', '—']);
    expect(by.fp32?.best).toEqual([1]);
    expect(by.dispatch?.best).toEqual([0]);
    expect(by.ridge?.cells[0]).toBe('10 FLOP/B');
    expect(by.ridge?.best).toEqual([]);
    expect(by['family:conv']?.cells).toEqual(['—', '50 %', '60 %', '—']);
    expect(by['family:conv']?.best).toEqual([2]);
    expect(by['family:gemm']?.label).toBe('gemm efficiency');
  });

  it("adds the workload's predicted time per device, matched by machine and device", () => {
    const predicted: ComparisonView = {
      machines: COMPARISON.machines.map((m) => ({
        ...m,
        devices: m.devices.map((d) => ({ ...d, predictedUs: d.deviceKey === 'cpu' ? 25_000 : 1_500 })),
      })),
      workload: { name: 'bert-base', mode: 'inference', batch: 1, predictor: 'analytical' },
    };
    const last = compareRows(COMPARISON, predicted).at(-1);
    expect(last).toEqual({
      key: 'predicted',
      label: 'bert-base (inference, batch 1)',
      cells: ['25 ms', '1.5 ms', '1.5 ms', '—'],
      best: [1, 2],
    });
    // A comparison of other machines adds nothing wrong: the cells stay empty.
    const other = { ...predicted, machines: predicted.machines.map((m) => ({ ...m, id: `x${m.id}` })) };
    expect(compareRows(COMPARISON, other).at(-1)?.cells).toEqual(['—', '—', '—', '—']);
  });
});

describe('the comparison charts', () => {
  it('groups bars by machine and gives every roof its own label', () => {
    expect(barGroups(COMPARISON, (d) => d.summary.bandwidthGBps)).toEqual([
      { label: 'ws', bars: [{ label: 'cpu · 16t', value: 60 }] },
      {
        label: 'gpu-a',
        bars: [
          { label: 'cuda:0', value: 700 },
          { label: 'cuda:1', value: 450 },
        ],
      },
      { label: 'empty', bars: [] },
    ]);
    const twins: ComparisonView = {
      machines: [COMPARISON.machines[1], { ...COMPARISON.machines[1], id: 'm4' }] as ComparisonView['machines'],
      workload: null,
    };
    expect(roofSeries(twins).map((s) => s.label)).toEqual([
      'gpu-a · cuda:0',
      'gpu-a · cuda:1',
      'gpu-a · cuda:0 (2)',
      'gpu-a · cuda:1 (2)',
    ]);
    expect(roofSeries(COMPARISON)[0]).toMatchObject({ peakGflops: 600, bandwidthGBps: 60, points: [] });
  });
});
