import { describe, expect, it } from 'vitest';
import { NvlinkSchema } from '../../../../src-main/core/domain/hardware.js';
import { parseNvlinkStatus } from '../../../../src-main/adapters/nvidia-smi/parse-nvlink.js';
import { CAPTURES, captureSection } from '../../../helpers/fake-nvidia-smi.js';

const nvlinkOf = (capture: string) => parseNvlinkStatus(captureSection(capture, 'nvidia-smi nvlink -s'));

describe('parseNvlinkStatus', () => {
  it('reads the 18 links of the H100 at 26.562 GB/s each', () => {
    const { links, warnings } = nvlinkOf(CAPTURES.h100);
    expect(warnings).toEqual([]);
    const gpu0 = links.get(0) ?? [];
    expect(gpu0).toHaveLength(18);
    expect(gpu0.map((l) => l.link)).toEqual([...Array(18).keys()]);
    for (const l of gpu0) {
      NvlinkSchema.parse(l);
      expect(l).toEqual({ link: l.link, speedGBps: 26.562, active: true });
    }
  });

  it('gives an empty list, without warning, for a GPU without NVLink (RTX 4080 SUPER)', () => {
    const { links, warnings } = nvlinkOf(CAPTURES.rtx4080Super);
    expect(links.get(0)).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('gives an empty list, without warning, when all links are inactive (RTX 2080 SUPER, Linux and Windows)', () => {
    for (const capture of [CAPTURES.rtx2080Super, CAPTURES.windows2080Super]) {
      const { links, warnings } = nvlinkOf(capture);
      expect(links.get(0)).toEqual([]);
      expect(warnings).toEqual([]);
    }
  });

  it('gives an empty list and a warning for the MIG refusal', () => {
    const { links, warnings } = nvlinkOf(CAPTURES.h100Mig);
    expect(links.get(0)).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Nvlink queries are not supported for Devices in MIG mode');
  });

  it('reads inactive links and several GPUs', () => {
    const text = [
      'GPU 0: Tesla V100-SXM2-16GB (UUID: GPU-aaaaaaaa-0000-0000-0000-000000000000)',
      '\t Link 0: 25.781 GB/s',
      '\t Link 1: <inactive>',
      'GPU 1: Tesla V100-SXM2-16GB (UUID: GPU-bbbbbbbb-0000-0000-0000-000000000000)',
      '\t Link 0: 25.781 GB/s',
      '',
    ].join('\r\n');
    const { links, warnings } = parseNvlinkStatus(text);
    expect(warnings).toEqual([]);
    expect(links.get(0)).toEqual([
      { link: 0, speedGBps: 25.781, active: true },
      { link: 1, speedGBps: null, active: false },
    ]);
    expect(links.get(1)).toEqual([{ link: 0, speedGBps: 25.781, active: true }]);
  });

  it('turns unexpected text into a few warnings, never an exception', () => {
    const { links, warnings } = parseNvlinkStatus('Failed to initialize NVML: Driver/library version mismatch\n');
    expect(links.size).toBe(0);
    expect(warnings[0]).toContain('Driver/library version mismatch');
    expect(parseNvlinkStatus('junk\n'.repeat(100)).warnings.length).toBeLessThanOrEqual(5);
  });
});
