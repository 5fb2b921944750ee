import { describe, expect, it } from 'vitest';
import type { RooflinePoint } from '../../../../src-main/api/view-models.js';
import {
  aboveRoof,
  aboveRoofCounts,
  plottable,
  ridgePoint,
  roofPolyline,
  rooflineDomains,
} from '../../../../src-renderer/src/lib/roofline.js';

const point = (intensity: number, gflops: number, dtype = 'fp32'): RooflinePoint => ({
  kernel: `k${intensity}-${gflops}-${dtype}`,
  family: 'gemm',
  op: 'MatMul',
  dtype,
  flops: 1e9,
  bytes: 1e9 / Math.max(intensity, 1e-9),
  timeUs: 1000,
  gflops,
  gbps: gflops / Math.max(intensity, 1e-9),
  intensity,
});

describe('roofline geometry', () => {
  const s = {
    label: 'cpu',
    peakGflops: 100,
    bandwidthGBps: 25,
    theoretical: null,
    points: [point(0.5, 10), point(20, 90), point(0, 0)],
  };

  it('leaves out kernels without FLOPs', () => {
    expect(plottable(s.points)).toHaveLength(2);
  });

  it('bends at the ridge point: peak / bandwidth', () => {
    expect(ridgePoint(s)).toBe(4);
    expect(roofPolyline(s, [0.01, 1000], [0.1, 1000])).toEqual([
      [0.01, 0.25],
      [4, 100],
      [1000, 100],
    ]);
  });

  it('enters the chart where the slope crosses its bottom', () => {
    const line = roofPolyline(s, [0.001, 1000], [1, 1000]);
    expect(line[0]).toEqual([0.04, 1]);
  });

  it('draws only the roof that was measured', () => {
    expect(roofPolyline({ peakGflops: 50, bandwidthGBps: null }, [1, 100], [1, 100])).toEqual([
      [1, 50],
      [100, 50],
    ]);
    expect(roofPolyline({ peakGflops: null, bandwidthGBps: null }, [1, 100], [1, 100])).toEqual([]);
  });

  it('holds every point, peak and ridge in whole decades', () => {
    const d = rooflineDomains([s]);
    expect(d.x).toEqual([0.1, 100]);
    expect(d.y).toEqual([10, 100]);
  });

  it('holds the theoretical ceiling too', () => {
    const withCeiling = { ...s, theoretical: { gflops: 2000, label: '2000 GFLOP/s at 5.00 GHz max boost', note: '' } };
    expect(rooflineDomains([withCeiling]).y).toEqual([10, 10000]);
  });
});

describe('kernels above the measured roof', () => {
  const s = { peakGflops: 100, bandwidthGBps: 25 };

  it('are none on or under it, the peak kernel included', () => {
    expect(aboveRoof(s, point(20, 100))).toBeNull();
    expect(aboveRoof(s, point(2, 50))).toBeNull();
    expect(aboveRoof({ peakGflops: null, bandwidthGBps: null }, point(2, 500))).toBeNull();
  });

  it('say why each is above: another dtype, data in the caches, or not counted toward the peak', () => {
    expect(aboveRoof(s, point(20, 180, 'fp16'))).toBe('dtype');
    // Under the peak but above 25 GB/s x 2 FLOP/B: faster than DRAM.
    expect(aboveRoof(s, point(2, 80))).toBe('cache');
    expect(aboveRoof(s, point(20, 140))).toBe('uncounted');
    expect(
      aboveRoofCounts([
        {
          ...s,
          label: 'cpu',
          theoretical: null,
          points: [point(2, 80), point(3, 90), point(20, 180, 'bf16'), point(1, 1)],
        },
      ]),
    ).toEqual([
      ['dtype', 1],
      ['cache', 2],
    ]);
  });
});
