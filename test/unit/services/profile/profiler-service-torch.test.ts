/**
 * Profiling through the PyTorch backend: real Python children (Debian's CPU-only torch where
 * installed, the same Python without torch otherwise), a real SQLite store.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { TorchRunner } from '../../../../src-main/adapters/torch/torch-runner.js';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { ownBlasPool } from '../../../../src-main/core/profiler/blas-pool.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { profileDevice } from '../../../../src-main/services/profile/profiler-service.js';
import type {
  KernelRunnerLike,
  ProfilerDeps,
  ProfileTarget,
} from '../../../../src-main/services/profile/profiler-types.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';
import { envWithoutTorch, SYSTEM_PYTHON } from '../../../helpers/torch-python.js';
import { needOracle } from '../../../helpers/oracle.js';

const hasTorch = needOracle('torch');

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 20, targetCi: 0.1, budgetMs: 60 };
const torchCpu: ProfileTarget = { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'torch-cpu', threads: 1 } };
const kernels: KernelSpec[] = [
  makeKernel('Gemm', 'fp32', { M: 64, N: 96, K: 128 }),
  makeKernel('Conv', 'fp32', { N: 1, C: 8, H: 16, W: 16, K: 16, R: 3, S: 3, stride: 1, groups: 1 }),
  makeKernel('Softmax', 'fp32', { rows: 64, cols: 256 }),
  makeKernel('Add', 'fp32', { n: 4096 }),
];

function freshDb(): Database {
  const db = openDatabase(':memory:');
  const probe = sampleProbe();
  new MachineRepo(db).upsertLocalMachine(probe, 'm1', devicesFromProbe(probe), linksFromProbe(probe));
  return db;
}

/** ONNX Runtime's runner must not be asked anything in these tests. */
const noOrt: KernelRunnerLike = {
  start: () => Promise.reject(new Error('ORT runner used')),
  run: () => Promise.reject(new Error('ORT runner used')),
  kill: () => undefined,
  close: () => Promise.resolve(),
};

function deps(db: Database, torch: TorchRunner): ProfilerDeps {
  return { db, runner: noOrt, torch, now: () => new Date(), epUnavailable: () => null };
}

describe('profiling with the PyTorch backend', () => {
  it('no torch: the device is unavailable, said in one line, nothing stored', async () => {
    const db = freshDb();
    const torch = new TorchRunner({ python: SYSTEM_PYTHON, env: envWithoutTorch() });
    const r = await profileDevice(deps(db, torch), torchCpu, { suite: 'quick', kernels, rule });
    expect(r.status).toBe('unavailable');
    expect(r.notes).toEqual([
      "PyTorch backend: no torch in /usr/bin/python3: ModuleNotFoundError: No module named 'torch'",
    ]);
    expect(new ProfileRepo(db).listMeasurements()).toEqual([]);
  });

  it.skipIf(!hasTorch)(
    'stores torch-cpu measurements timed by the wall clock, with its eager dispatch per op from chains and no calibration',
    async () => {
      const db = freshDb();
      const torch = new TorchRunner({ python: SYSTEM_PYTHON });
      try {
        const r = await profileDevice(deps(db, torch), torchCpu, { suite: 'quick', kernels, rule, refineLimit: 0 });
        expect(r.status).toBe('complete');
        expect(r.measured).toBe(kernels.length);
        const ms = new ProfileRepo(db).listMeasurements();
        expect(ms.map((m) => [m.executionProvider, m.threads, m.deviceKey])).toEqual(
          kernels.map(() => ['torch-cpu', 1, 'cpu']),
        );
        expect(ms[0]?.runtimeVersion).toMatch(/^torch \d/);
        expect(r.summary).toMatchObject({ timing: { method: 'wall-clock', backend: 'pytorch' } });
        // The chains' slope is the dispatch inside every kernel's time, not a cost beyond it.
        expect(r.summary?.['overhead']).toMatchObject({ nodeUs: 0, binding: null });
        const overhead = r.summary?.['overhead'] as { dispatchUs: number; points: { nodes: number }[] };
        expect(overhead.dispatchUs).toBeGreaterThan(0);
        expect(overhead.points.map((p) => p.nodes)).toEqual([1, 16, 64, 256]);
        expect(r.summary?.['calibration']).toBeUndefined();
        // The BLAS the products ran on is kept with the run; a pool of its own is said at 1 thread too.
        const blas = (await torch.start()).blas ?? null;
        expect(r.summary?.['blas']).toEqual(blas ?? undefined);
        expect(r.notes.filter((n) => n.startsWith('PyTorch at 1 thread still runs'))).toHaveLength(
          ownBlasPool(blas) ? 1 : 0,
        );
      } finally {
        await torch.close();
      }
    },
    120_000,
  );

  it.skipIf(!hasTorch)(
    'a GPU target on a torch without CUDA is unavailable, in one line',
    async () => {
      const db = freshDb();
      const torch = new TorchRunner({ python: SYSTEM_PYTHON });
      const target: ProfileTarget = { machineId: 'm1', deviceKey: 'cuda:0', ep: { name: 'torch-cuda', deviceId: 0 } };
      try {
        const r = await profileDevice(deps(db, torch), target, { suite: 'quick', kernels, rule });
        expect(r.status).toBe('unavailable');
        expect(r.notes).toHaveLength(1);
        expect(r.notes[0]).toMatch(/^cuda:0: PyTorch \S+ in \S+ has no CUDA/);
      } finally {
        await torch.close();
      }
    },
    60_000,
  );

  it.skipIf(!hasTorch)(
    'a GPU lost mid-profile stops the run and keeps the finished kernels',
    async () => {
      const db = freshDb();
      // The trial kernel and two more run; the fourth call fails as a GPU that fell off the bus does.
      const env = { ...process.env, PIPEDEJAVU_TORCH_FAULT: 'gpu-lost-after:3' };
      const torch = new TorchRunner({ python: SYSTEM_PYTHON, env });
      const target: ProfileTarget = { machineId: 'm1', deviceKey: 'cpu', ep: { name: 'torch-cpu', threads: 1 } };
      try {
        // A loose interval: a kernel judged noisy would be timed again, and the retry would use up a call before the loss.
        const loose = { ...rule, targetCi: 1 };
        const r = await profileDevice(deps(db, torch), target, {
          suite: 'quick',
          kernels,
          rule: loose,
          refineLimit: 0,
        });
        expect(r.measured).toBe(2);
        expect(new ProfileRepo(db).listMeasurements()).toHaveLength(2);
        expect(r.notes.filter((n) => n.startsWith('stopped: '))).toEqual([
          'stopped: the GPU stopped answering (RuntimeError: CUDA error: unspecified launch failure)',
        ]);
        expect(r.failures).toHaveLength(1);
      } finally {
        await torch.close();
      }
    },
    60_000,
  );
});
