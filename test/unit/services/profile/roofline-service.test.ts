/** A machine's runs and measured rooflines, read through the services the Profile view calls. */
import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { listProfileRuns } from '../../../../src-main/services/profile/profile-runs.js';
import { rooflines, rooflinesWithPoints } from '../../../../src-main/services/profile/roofline-service.js';
import { createSeededRun, recordOverhead, SEEDED_MACHINE, seededDb } from '../../../helpers/seeded-store.js';

describe('rooflinesWithPoints', () => {
  it('gives each profiled device its roofline and every profiled kernel as a point', () => {
    const db = seededDb();
    const roofs = rooflinesWithPoints(db);
    expect(roofs.map((r) => [r.deviceKey, r.threads])).toEqual([
      ['cpu', 1],
      ['cpu', 16],
    ]);
    const { points, ...roof } = roofs[0]!;
    expect(roof).toEqual(rooflines(db, SEEDED_MACHINE)[0]);
    const stored = new ProfileRepo(db).listMeasurements({ machineId: SEEDED_MACHINE }).filter((m) => m.threads === 1);
    expect(points).toHaveLength(stored.length);
    const m = stored[0]!;
    expect(points[0]).toEqual({
      kernel: `${m.op} ${Object.entries(m.shape)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')} ${m.dtype}`,
      family: m.family,
      op: m.op,
      dtype: m.dtype,
      flops: m.flops,
      bytes: m.bytes,
      timeUs: m.stats.medianUs,
      gflops: m.flops / m.stats.medianUs / 1000,
      gbps: m.bytes / m.stats.medianUs / 1000,
      intensity: m.bytes > 0 ? m.flops / m.bytes : 0,
    });
  });

  it("reports each device's measured per-run, per-node, wake-up and binding costs from its newest profile run", () => {
    const db = seededDb();
    expect(rooflines(db, SEEDED_MACHINE).map((r) => r.overhead)).toEqual([null, null]);
    const binding = { perCallUs: 12, nsPerByte: 0.5, points: [] };
    recordOverhead(db, 1, { runUs: 20, nodeUs: 0.25, profilerNodeUs: 3, points: [], binding });
    const [one, sixteen] = rooflines(db, SEEDED_MACHINE);
    // The run's fixed cost less the binding's per-call part; 0.5 ns/byte is 524.288 µs per MiB.
    // A profile without the wake-up chains (older, or at one thread) reports none.
    expect(one!.overhead).toEqual({
      runUs: 8,
      nodeUs: 0.25,
      binding: { perCallUs: 12, usPerMiB: 524.288 },
      wakeUs: null,
    });
    expect(sixteen!.overhead).toBeNull();
    recordOverhead(db, 16, { runUs: 10, nodeUs: 0.3, profilerNodeUs: 3, points: [], binding: null, wakeUs: 1.5 });
    expect(rooflines(db, SEEDED_MACHINE)[1]!.overhead).toMatchObject({ runUs: 10, wakeUs: 1.5 });
  });

  it('names a machine the store does not have', () => {
    expect(() => rooflinesWithPoints(seededDb(), 'box')).toThrow('no machine "box" in the store');
  });
});

describe('listProfileRuns', () => {
  it('lists runs oldest first with their measurement counts, closing a run its profiler left running', () => {
    const db = seededDb();
    const repo = new ProfileRepo(db);
    const abandoned = createSeededRun(repo, { threads: 4 });
    const runs = listProfileRuns(db, 'lab-ws-01');
    expect(runs.map((r) => [r.threads, r.status])).toEqual([
      [1, 'complete'],
      [16, 'complete'],
      [4, 'interrupted'],
    ]);
    expect(runs.map((r) => r.measurements)).toEqual([
      repo.listMeasurements({ runId: runs[0]!.id }).length,
      repo.listMeasurements({ runId: runs[1]!.id }).length,
      0,
    ]);
    expect(runs[0]!.measurements).toBeGreaterThan(0);
    expect(runs[2]!.id).toBe(abandoned.id);
  });
});

describe('the theoretical CPU peak', () => {
  it('is cores x clock x FLOP/cycle, or unknown with the reason when the measured peak is above it', async () => {
    const { theoreticalOf } = await import('../../../../src-main/services/profile/roofline-service.js');
    const { sampleProbe } = await import('../../../helpers/sample-probe.js');
    const probe = sampleProbe();
    // 2 threads x 5.7 GHz x 32 FLOP/cycle.
    expect(theoreticalOf(probe, 2, 300)).toEqual({ theoreticalGflops: 364.8, theoreticalNote: null });
    // A VM reporting its nominal 2.1 GHz while the cores boost: never a percentage above 100.
    const vm = { ...probe, cpu: { ...probe.cpu, maxClockGHz: 2.1 } };
    const r = theoreticalOf(vm, 2, 394);
    expect(r.theoreticalGflops).toBeNull();
    expect(r.theoreticalNote).toBe(
      'cpu at 2 threads: the measured fp32 peak (394 GFLOP/s) is above cores x the clock the OS reports (2.1 GHz) x 32 FLOP/cycle (134 GFLOP/s): ' +
        'the cores run faster than reported (a virtual machine often reports a nominal clock), so the theoretical peak is unknown',
    );
  });
});
