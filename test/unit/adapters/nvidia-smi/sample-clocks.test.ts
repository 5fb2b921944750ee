import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleGpuClocks } from '../../../../src-main/adapters/nvidia-smi/sample-clocks.js';
import { throttleReasons } from '../../../../src-main/core/profiler/gpu-clocks.js';
import { CAPTURES, makeFakeSmi, type FakeSmi } from '../../../helpers/fake-nvidia-smi.js';

describe('reading clocks, temperature, power and throttle reasons through nvidia-smi (recorded captures)', () => {
  let fake: FakeSmi;
  beforeAll(async () => {
    fake = await makeFakeSmi();
  });
  afterAll(() => fake.cleanup());

  it('reads an idle H100: SM clock, temperature, power, and an idle (not throttled) mask', async () => {
    const r = await sampleGpuClocks(fake.smiPath, 0, { env: fake.env(CAPTURES.h100) });
    expect(r).toEqual({
      kind: 'ok',
      sample: { smClockMHz: 345, temperatureC: 41, powerW: 69.85, reasonsMask: '0x0000000000000001' },
    });
    if (r.kind === 'ok') expect(throttleReasons(r.sample.reasonsMask)).toEqual([]);
  });

  it('sees the power cap and thermal slowdown of the derived throttled capture', async () => {
    const r = await sampleGpuClocks(fake.smiPath, 0, { env: fake.env(CAPTURES.h100Throttled) });
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(throttleReasons(r.sample.reasonsMask)).toEqual(['sw_power_cap', 'hw_thermal_slowdown']);
  });

  it('reads every recorded driver, consumer cards and Windows included', async () => {
    for (const capture of [CAPTURES.rtx4080Super, CAPTURES.rtx2080Super, CAPTURES.windows2080Super, CAPTURES.h100Mig]) {
      const r = await sampleGpuClocks(fake.smiPath, 0, { env: fake.env(capture) });
      expect({ capture, kind: r.kind }).toEqual({ capture, kind: 'ok' });
      if (r.kind === 'ok') expect(r.sample.temperatureC).toBeGreaterThan(0);
    }
  });

  it('says in one line when nvidia-smi hangs, is missing or the driver is gone', async () => {
    const hang = await sampleGpuClocks(fake.smiPath, 0, { env: fake.env(CAPTURES.h100, 'hang'), timeoutMs: 300 });
    expect(hang).toEqual({ kind: 'unavailable', reason: `nvidia-smi did not answer within 0.3 s (${fake.smiPath})` });
    const missing = await sampleGpuClocks('/nonexistent/nvidia-smi', 0);
    expect(missing.kind === 'unavailable' && missing.reason).toMatch(/not found/);
    const driver = await sampleGpuClocks(fake.smiPath, 0, { env: fake.env(CAPTURES.h100, 'driver-fail') });
    expect(driver.kind === 'unavailable' && driver.reason).toMatch(
      /^nvidia-smi failed \(exit 9\): NVIDIA-SMI has failed/,
    );
    for (const r of [hang, missing, driver]) if (r.kind === 'unavailable') expect(r.reason).not.toMatch(/\n/);
  });

  it('decodes masks: only thermal and power reasons count; junk is no throttle', () => {
    expect(throttleReasons('0x0000000000000001')).toEqual([]);
    expect(throttleReasons('0x00000000000000A8')).toEqual([
      'hw_slowdown',
      'sw_thermal_slowdown',
      'hw_power_brake_slowdown',
    ]);
    expect(throttleReasons(null)).toEqual([]);
    expect(throttleReasons('[N/A]')).toEqual([]);
  });
});
