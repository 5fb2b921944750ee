/** A machine's runs and measured rooflines, read through the services the Profile view calls. */
import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { listProfileRuns } from '../../../../src-main/services/profile/profile-runs.js';
import { rooflines, rooflinesWithPoints } from '../../../../src-main/services/profile/roofline-service.js';
import { cpuPeak } from '../../../../src-main/core/profiler/cpu-peak.js';
import { machineFor } from '../../../../src-main/services/machine/machine-service.js';
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
      parallelOpUs: null,
    });
    expect(sixteen!.overhead).toBeNull();
    recordOverhead(db, 16, {
      runUs: 10,
      nodeUs: 0.3,
      profilerNodeUs: 3,
      points: [],
      binding: null,
      wakeUs: 1.5,
      parallelOpUs: 0.8,
    });
    expect(rooflines(db, SEEDED_MACHINE)[1]!.overhead).toMatchObject({ runUs: 10, wakeUs: 1.5, parallelOpUs: 0.8 });
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

describe('the theoretical CPU peak of the rooflines', () => {
  it('gives each CPU thread count the same verdict, and the machine view the whole CPU', async () => {
    const { machineCpuPeak } = await import('../../../../src-main/services/profile/roofline-service.js');
    const db = seededDb();
    const roofs = rooflines(db, SEEDED_MACHINE);
    const measured = roofs.map((r) => ({ gflops: r.summary.peakGflops.fp32!, threads: r.threads }));
    const probe = machineFor(db, SEEDED_MACHINE).probe;
    for (const r of roofs) expect(r.theoreticalPeak).toEqual(cpuPeak(probe.cpu, r.threads, measured));
    expect(machineCpuPeak(db, SEEDED_MACHINE)).toEqual(cpuPeak(probe.cpu, null, measured));
    // Asked for the CPU alone, the verdict is the same.
    expect(rooflines(db, SEEDED_MACHINE, 'cpu').map((r) => r.theoreticalPeak)).toEqual(
      roofs.map((r) => r.theoreticalPeak),
    );
  });
});
