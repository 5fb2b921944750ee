import { describe, expect, it } from 'vitest';
import { devicesFromProbe, linksFromProbe, pcieBandwidthGBps } from '../../../../src-main/core/domain/devices.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

describe('devices and links from a probe', () => {
  it('lists the CPU first, then one device per GPU with its memory in bytes', () => {
    const devices = devicesFromProbe(sampleProbe());
    expect(devices.map((d) => d.key)).toEqual(['cpu', 'cuda:0', 'cuda:1']);
    expect(devices[1]?.memoryBytes).toBe(16376 * 1024 * 1024);
    expect(devices[0]?.memoryBytes).toBe(68719476736);
  });

  it('derives PCIe bandwidth from generation and width', () => {
    expect(pcieBandwidthGBps(4, 16)).toBeCloseTo(31.504, 3);
    expect(pcieBandwidthGBps(5, 16)).toBeCloseTo(63.008, 3);
    expect(pcieBandwidthGBps(3, 8)).toBeCloseTo(7.88, 3);
    expect(pcieBandwidthGBps(null, 16)).toBeNull();
    expect(pcieBandwidthGBps(9, 16)).toBeNull();
  });

  it('gives each GPU a host link and each GPU pair the topology kind, bounded by the slower GPU', () => {
    const links = linksFromProbe(sampleProbe());
    expect(links.filter((l) => l.kind === 'PCIE_HOST').map((l) => l.b)).toEqual(['cuda:0', 'cuda:1']);
    const pair = links.find((l) => l.a === 'cuda:0' && l.b === 'cuda:1');
    expect(pair?.kind).toBe('PHB');
    expect(pair?.bandwidthGBps).toBeCloseTo(7.88, 3);
  });

  it('sums bonded NVLinks for NV# cells', () => {
    const base = sampleProbe();
    const nvlinks = Array.from({ length: 18 }, (_, link) => ({ link, speedGBps: 26.562, active: true }));
    const probe = sampleProbe({
      nvidia: {
        ...base.nvidia,
        gpus: base.nvidia.gpus.map((g) => ({ ...g, nvlinks })),
        topology: {
          ...base.nvidia.topology!,
          matrix: [
            [
              { kind: 'X', nvlinks: null, raw: 'X' },
              { kind: 'NV', nvlinks: 18, raw: 'NV18' },
            ],
            [
              { kind: 'NV', nvlinks: 18, raw: 'NV18' },
              { kind: 'X', nvlinks: null, raw: 'X' },
            ],
          ],
        },
      },
    });
    const pair = linksFromProbe(probe).find((l) => l.a === 'cuda:0' && l.b === 'cuda:1');
    expect(pair?.kind).toBe('NVLINK');
    expect(pair?.nvlinkCount).toBe(18);
    expect(pair?.bandwidthGBps).toBeCloseTo(478.116, 3);
  });

  it('has only the CPU on a machine without GPUs', () => {
    const base = sampleProbe();
    const probe = sampleProbe({
      nvidia: { ...base.nvidia, status: 'not-installed', gpus: [], topology: null, smiPath: null },
    });
    expect(devicesFromProbe(probe).map((d) => d.key)).toEqual(['cpu']);
    expect(linksFromProbe(probe)).toEqual([]);
  });
});
