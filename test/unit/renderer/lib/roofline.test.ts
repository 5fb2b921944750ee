import { describe, expect, it } from 'vitest';
import type { RooflinePoint } from '../../../../src-main/api/view-models.js';
import { plottable, ridgePoint, roofPolyline, rooflineDomains } from '../../../../src-renderer/src/lib/roofline.js';

const point = (intensity: number, gflops: number): RooflinePoint => ({
  kernel: `k${intensity}-${gflops}`,
  family: 'gemm',
  op: 'MatMul',
  dtype: 'fp32',
  flops: 1e9,
  bytes: 1e9 / Math.max(intensity, 1e-9),
  timeUs: 1000,
  gflops,
  gbps: gflops / Math.max(intensity, 1e-9),
  intensity,
});

describe('roofline geometry', () => {
  const s = { label: 'cpu', peakGflops: 100, bandwidthGBps: 25, points: [point(0.5, 10), point(20, 90), point(0, 0)] };

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
});
