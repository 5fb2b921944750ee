/**
 * machine:compare: `pipedejavu compare` through the one dispatch the IPC and HTTP transports
 * call; answers are results or one-line errors, never a throw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src-main/app/app-core.js';
import type { ComparisonView } from '../../../../src-main/api/view-models.js';
import { machineLab } from '../../../helpers/machine-lab.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

/** The seeded local machine and two imported GPU servers (gpu-a, gpu-b): their ids in that order. */
async function lab(): Promise<{ core: AppCore; ids: string[] }> {
  const l = await machineLab('pdjv-app-');
  core = l.core;
  return l;
}

async function waitJobs(c: AppCore): Promise<void> {
  while (c.jobs.list().some((j) => j.state === 'running')) await new Promise((r) => setTimeout(r, 20));
}

describe('machine:compare', () => {
  it('puts three machines side by side: peaks, bandwidth, ridge, dispatch, efficiency per family', async () => {
    const { core: c, ids } = await lab();
    expect(new Set(ids).size).toBe(3);
    const r = await c.dispatch('machine:compare', { machines: ids });
    expect(r.ok).toBe(true);
    const v = (r as { value: ComparisonView }).value;
    expect(v.machines.map((m) => m.label)).toEqual(['lab-ws-01', 'gpu-a', 'gpu-b']);
    expect(v.machines.map((m) => m.source)).toEqual(['local', 'imported', 'imported']);
    expect(v.workload).toBeNull();
    expect(v.machines[0]?.devices.map((d) => d.threads)).toEqual([1, 16]);
    expect(v.machines[1]?.devices.map((d) => d.deviceKey)).toEqual(['cuda:0', 'cuda:1']);
    for (const d of v.machines.flatMap((m) => m.devices)) {
      expect(d.summary.peakGflops.fp32).toBeGreaterThan(0);
      expect(d.summary.bandwidthGBps).toBeGreaterThan(0);
      expect(d.summary.ridgePoint).toBeCloseTo((d.summary.peakGflops.fp32 ?? 0) / (d.summary.bandwidthGBps ?? 1), 6);
      expect(d.summary.dispatchOverheadUs).toBeGreaterThan(0);
      expect(d.predictedUs).toBeUndefined();
      const eff = Object.values(d.familyEfficiency);
      expect(eff.length).toBeGreaterThan(0);
      for (const e of eff) {
        expect(e).toBeGreaterThan(0);
        expect(e).toBeLessThanOrEqual(1);
      }
    }
    // The fast GPU of the lab servers outruns the seeded CPU.
    const gpu = v.machines[1]?.devices[0]?.summary.peakGflops.fp32 ?? 0;
    expect(gpu).toBeGreaterThan(v.machines[0]?.devices[1]?.summary.peakGflops.fp32 ?? Infinity);
    // Labels work as ids do (as on the command line), in the order asked.
    const byLabel = await c.dispatch('machine:compare', { machines: ['gpu-b', 'lab-ws-01'] });
    expect(byLabel.ok && (byLabel.value as ComparisonView).machines.map((m) => m.id)).toEqual([ids[2], ids[0]]);
  });

  it('answers errors as results: fewer than two, twice the same, an unknown machine, no predictor', async () => {
    const { core: c, ids } = await lab();
    const one = await c.dispatch('machine:compare', { machines: [ids[0]] });
    expect(one).toMatchObject({ ok: false, error: { code: 'invalid' } });
    if (!one.ok) expect(one.error.message).toMatch(/^machine:compare: .*at least two/);
    const twice = await c.dispatch('machine:compare', { machines: [ids[0], ids[0]] });
    expect(twice).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringMatching(/once/) } });
    expect(await c.dispatch('machine:compare', { machines: ids, mode: 'sideways' })).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
    expect(await c.dispatch('machine:compare', { machines: [ids[0], 'nope'] })).toEqual({
      ok: false,
      error: { code: 'user', message: 'no machine "nope" in the store' },
    });
    const untrained = await c.dispatch('machine:compare', { machines: ids, workload: 'bert-base' });
    expect(untrained).toMatchObject({ ok: false, error: { code: 'user', message: expect.stringMatching(/train/) } });
    if (!untrained.ok) expect(untrained.error.message.split('\n')).toHaveLength(1);
  });

  it("predicts a chosen workload's time on every device of every machine", async () => {
    const { core: c, ids } = await lab();
    const t = await c.dispatch('predictor:train', { predictors: ['analytical'] });
    expect(t.ok).toBe(true);
    await waitJobs(c);
    const r = await c.dispatch('machine:compare', {
      machines: ids,
      workload: 'bert-base',
      mode: 'inference',
      batch: 1,
      seq: 128,
    });
    expect(r.ok).toBe(true);
    const v = (r as { value: ComparisonView }).value;
    expect(v.workload).toEqual({ name: 'bert-base', mode: 'inference', batch: 1, predictor: 'analytical' });
    const devices = v.machines.flatMap((m) => m.devices);
    expect(devices).toHaveLength(6);
    for (const d of devices) expect(d.predictedUs).toBeGreaterThan(0);
    const cpu = v.machines[0]?.devices[0]?.predictedUs ?? 0;
    expect(v.machines[1]?.devices[0]?.predictedUs).toBeLessThan(cpu);
  }, 60_000);
});
