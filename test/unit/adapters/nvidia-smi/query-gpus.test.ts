import { describe, expect, it } from 'vitest';
import { GpuInfoSchema } from '../../../../src-main/core/domain/hardware.js';
import { GPU_QUERY_FIELDS, parseGpuRows } from '../../../../src-main/adapters/nvidia-smi/query-gpus.js';

// Rows in GPU_QUERY_FIELDS order, as `--format=csv,noheader,nounits` prints them.
const A100 = (i: number, bus: string) =>
  `${i}, GPU-a100000${i}-0000-0000-0000-000000000000, 00000000:${bus}:00.0, 535.104.05, 40960, 40337, 8.0, ` +
  `1410, 1215, 1410, 4, 4, 16, 400.00, 400.00, Disabled, NVIDIA A100-SXM4-40GB`;

describe('parseGpuRows', () => {
  it('reads several GPUs in nounits form', () => {
    const r = parseGpuRows(GPU_QUERY_FIELDS, `${A100(0, '07')}\n${A100(1, '0F')}\n`);
    expect(r?.badRows).toEqual([]);
    expect(r?.driverVersion).toBe('535.104.05');
    expect(r?.gpus.map((g) => [g.index, g.pciBusId, g.memoryTotalMiB, g.computeCapability])).toEqual([
      [0, '00000000:07:00.0', 40960, '8.0'],
      [1, '00000000:0F:00.0', 40960, '8.0'],
    ]);
    for (const g of r?.gpus ?? []) GpuInfoSchema.parse(g);
  });

  it('falls back to enforced.power.limit and keeps sentinels as null', () => {
    const row = `0, [N/A], 00000000:01:00.0, 470.57.02, 8192, 8000, [Not Supported], [N/A], [N/A], [N/A], 3, [N/A], 16, [Not Supported], 150.00, [N/A], Tesla T4`;
    const gpu = parseGpuRows(GPU_QUERY_FIELDS, row)?.gpus[0];
    expect(gpu).toMatchObject({ uuid: null, computeCapability: null, maxSmClockMHz: null, pcieGenGpuMax: null });
    expect(gpu?.powerLimitW).toBe(150);
    expect(gpu?.migMode).toBeNull();
  });

  it('keeps a GPU name that contains ", "', () => {
    const row = A100(0, '07').replace('NVIDIA A100-SXM4-40GB', 'NVIDIA Weird, Name');
    expect(parseGpuRows(GPU_QUERY_FIELDS, row)?.gpus[0]?.name).toBe('NVIDIA Weird, Name');
  });

  it('is null when no line is a GPU row, and counts stray lines otherwise', () => {
    expect(parseGpuRows(GPU_QUERY_FIELDS, 'lorem ipsum\n%%%\n')).toBeNull();
    const r = parseGpuRows(GPU_QUERY_FIELDS, `${A100(0, '07')}\nUnable to determine the device handle for GPU1\n`);
    expect(r?.gpus).toHaveLength(1);
    expect(r?.badRows).toEqual(['Unable to determine the device handle for GPU1']);
  });
});
