/**
 * PyTorch on a CPU whose matrix products run on a BLAS pool of their own (Debian's torch on
 * OpenBLAS's pthreads build): the profile keeps the pool in its summary, predictions at more than
 * one thread say the two pools contend, and the CPU's peak is judged on the pool's cores.
 */
import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import type { BlasPool } from '../../../../src-main/core/profiler/blas-pool.js';
import { rooflines } from '../../../../src-main/services/profile/roofline-service.js';
import { predictModel } from '../../../../src-main/services/workload/workload-service.js';
import { createSeededRun, seededDb } from '../../../helpers/seeded-store.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { device, measurementOf, syntheticSamples } from '../../../helpers/synthetic-samples.js';

const openblas: BlasPool = { library: 'OpenBLAS 0.3.21', threading: 'pthreads', threads: 16 };

/** The seeded machine profiled on PyTorch at `threads`, its run's summary holding `blas`. */
function withTorch(threads: number, blas: BlasPool | null, gflops = 60 * threads) {
  const db = seededDb();
  const repo = new ProfileRepo(db);
  const run = createSeededRun(repo, { threads, executionProvider: 'torch-cpu', runtimeVersion: 'torch 1.13.0a0' });
  const d = device(`torch${threads}`, gflops, 15, threads);
  const ms = syntheticSamples([d], 0.01, threads).map((s) =>
    measurementOf(s, { runId: run.id, deviceKey: 'cpu', executionProvider: 'torch-cpu', threads }),
  );
  repo.insertMeasurements(run.id, ms);
  repo.finishRun(run.id, 'complete', blas ? { blas } : {});
  trainPredictors(db, ['roofline']);
  return db;
}

const contention = (ws: string[]): string | undefined => ws.find((w) => w.includes('beside its OpenMP pool'));

describe("PyTorch's products on a BLAS pool of their own", () => {
  it('predictions at more than one PyTorch thread say the pools contend; at one thread, or without a pool, nothing', () => {
    const at = (threads: number, blas: BlasPool | null): string[] =>
      predictModel(withTorch(threads, blas), 'bert-base', { device: 'cpu', threads, seq: 32 }).warnings;
    expect(contention(at(2, openblas))).toMatch(
      /^PyTorch runs its matrix products on OpenBLAS 0\.3\.21's own pthreads pool of 16 threads beside its OpenMP pool of 2 threads/,
    );
    expect(contention(at(1, openblas))).toBeUndefined();
    expect(contention(at(2, null))).toBeUndefined();
    expect(contention(at(2, { ...openblas, threading: 'openmp' }))).toBeUndefined();
  });

  it("judges a PyTorch peak on the BLAS pool's cores, not PyTorch's thread count", () => {
    const implied = (blas: BlasPool | null): number | null | undefined =>
      rooflines(withTorch(1, blas, 240)).find((r) => r.executionProvider === 'torch-cpu')?.theoreticalPeak
        ?.impliedClockGHz;
    const alone = implied(null);
    const pooled = implied({ ...openblas, threads: 4 });
    expect(alone).not.toBeNull();
    expect(pooled).not.toBeNull();
    // PyTorch's 1-thread peak, 4x ONNX Runtime's, needs a 4x clock on one core, and ORT's clock on the pool's 4.
    expect(pooled as number).toBeLessThan((alone as number) / 2);
  });
});
