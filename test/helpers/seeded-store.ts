/**
 * A store holding one machine with synthetic CPU measurements (a known law, two
 * thread counts), for predictor and CLI tests that need data without profiling.
 */
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import type { RunOverhead } from '../../src-main/core/profiler/overhead.js';
import { devicesFromProbe, linksFromProbe } from '../../src-main/core/domain/devices.js';
import { makeKernel } from '../../src-main/core/kernels/cost.js';
import { device, measurementOf, syntheticSamples } from './synthetic-samples.js';
import { sampleProbe } from './sample-probe.js';

export const SEEDED_MACHINE = 'seeded0000000001';

export function seedStore(db: Database): void {
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, SEEDED_MACHINE, devicesFromProbe(probe), linksFromProbe(probe));
  const repo = new ProfileRepo(db);
  for (const threads of [1, 16]) {
    const d = device(`t${threads}`, threads === 1 ? 60 : 600, threads === 1 ? 15 : 60, threads);
    const run = createSeededRun(repo, { threads });
    const ms = syntheticSamples([d], 0.01, threads).map((s) =>
      measurementOf(s, { runId: run.id, deviceKey: 'cpu', executionProvider: 'cpu', threads }),
    );
    repo.insertMeasurements(run.id, ms);
    repo.finishRun(run.id, 'complete', null);
  }
}

/** A finished profile run of the seeded machine's CPU whose summary holds `overhead`. */
export function recordOverhead(db: Database, threads: number, overhead: RunOverhead): void {
  const repo = new ProfileRepo(db);
  const run = createSeededRun(repo, { threads });
  repo.finishRun(run.id, 'complete', { overhead });
}

/** A new quick profile run of the seeded machine's CPU (ORT 1.30.0's CPU EP unless told otherwise). */
export function createSeededRun(
  repo: ProfileRepo,
  run: { threads: number; executionProvider?: string; runtimeVersion?: string },
): ReturnType<ProfileRepo['createRun']> {
  return repo.createRun({
    machineId: SEEDED_MACHINE,
    deviceKey: 'cpu',
    suite: 'quick',
    executionProvider: run.executionProvider ?? 'cpu',
    threads: run.threads,
    runtimeVersion: run.runtimeVersion ?? '1.30.0',
  });
}

/** fp32 MatMuls stored in the seeded CPU's profile run at `threads` (1 or 16): [shape, µs]. */
export function storeMatMuls(db: Database, threads: number, rows: readonly [Record<string, number>, number][]): void {
  const repo = new ProfileRepo(db);
  const run = repo.listRuns(SEEDED_MACHINE).find((r) => r.threads === threads);
  if (!run) throw new Error(`no ${threads}-thread run`);
  repo.insertMeasurements(
    run.id,
    rows.map(([shape, us]) => {
      const k = makeKernel('MatMul', 'fp32', shape);
      return {
        runId: run.id,
        deviceKey: 'cpu',
        executionProvider: 'cpu',
        threads,
        op: k.op,
        family: k.family,
        shape: k.shape,
        dtype: k.dtype,
        flops: k.flops,
        bytes: k.bytes,
        runtimeVersion: '1.30.0',
        stats: { medianUs: us, p10Us: us, p90Us: us, cv: 0.01, repetitions: 20, wallMedianUs: us },
        source: 'profile' as const,
      };
    }),
  );
}

export function seededDb(path = ':memory:'): Database {
  const db = openDatabase(path);
  seedStore(db);
  return db;
}
