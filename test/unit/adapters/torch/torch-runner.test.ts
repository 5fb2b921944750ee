import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonCandidates, TorchRunner } from '../../../../src-main/adapters/torch/torch-runner.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { KERNEL_OPS, TIMED_INSIDE_OPS } from '../../../../src-main/core/kernels/types.js';
import { kernelsFor } from '../../../../src-main/services/profile/profiler-service.js';
import { tempDir } from '../../../helpers/cli.js';
import { envWithoutTorch, SYSTEM_PYTHON } from '../../../helpers/torch-python.js';
import { needOracle } from '../../../helpers/oracle.js';

const rule = { warmupRuns: 1, minRepetitions: 3, maxRepetitions: 8, targetCi: 0.2, budgetMs: 30 };

describe('the PyTorch runner without torch', () => {
  it('says in one line which Python was tried and why, when it has no torch', async () => {
    const runner = new TorchRunner({ python: SYSTEM_PYTHON, env: envWithoutTorch() });
    await expect(runner.start()).rejects.toThrow(
      /^PyTorch backend: no torch in \/usr\/bin\/python3: ModuleNotFoundError: No module named 'torch'$/,
    );
    const spec = kernelsFor({ name: 'torch-cpu', threads: 1 }, 'quick')[0];
    const outcome = await runner.run({ spec: spec!, ep: { name: 'torch-cpu', threads: 1 }, rule });
    expect(outcome).toMatchObject({ ok: false, kind: 'ep-unavailable' });
  });

  it('says so when the named Python is not there', async () => {
    const runner = new TorchRunner({ python: '/nonexistent/python3' });
    await expect(runner.start()).rejects.toThrow(/^PyTorch backend: no torch in \/nonexistent\/python3: could not run/);
  });

  it('tries each python3 on PATH once (by real path), then /usr/bin/python3', () => {
    const dir = tempDir();
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    mkdirSync(a);
    mkdirSync(b);
    symlinkSync(SYSTEM_PYTHON, path.join(a, 'python3'));
    symlinkSync(SYSTEM_PYTHON, path.join(b, 'python3'));
    expect(pythonCandidates(undefined, { PATH: `${a}:${b}:/nonexistent` })).toEqual([path.join(a, 'python3')]);
    expect(pythonCandidates(undefined, { PATH: '/nonexistent' })).toEqual([SYSTEM_PYTHON]);
    expect(pythonCandidates('/opt/py/bin/python', { PIPEDEJAVU_PYTHON: '/x' })).toEqual(['/opt/py/bin/python']);
    expect(pythonCandidates(undefined, { PIPEDEJAVU_PYTHON: '/x' })).toEqual(['/x']);
  });
});

describe.skipIf(!needOracle('torch'))('the PyTorch runner on Debian’s torch (CPU only)', () => {
  const runner = new TorchRunner({ python: SYSTEM_PYTHON });
  afterAll(() => runner.close());

  it('runs one kernel of every op the CPU profiles, timed by the wall clock', async () => {
    const info = await runner.start();
    expect(info.ortVersion).toMatch(/^torch \d+\.\d+/);
    const ep = { name: 'torch-cpu', threads: 1 } as const;
    const kernels = kernelsFor(ep, 'quick');
    const ops = [...new Set(kernels.map((k) => k.op))];
    // Every op of the catalogue but the host-device copies, which the CPU does not profile,
    // and ORT's NCHWc reorders, timed inside ORT's kernels.
    expect(ops.sort()).toEqual(KERNEL_OPS.filter((op) => !op.startsWith('Copy') && !TIMED_INSIDE_OPS.has(op)).sort());
    for (const op of ops) {
      const spec = kernels.filter((k) => k.op === op).sort((x, y) => x.flops + x.bytes - (y.flops + y.bytes))[0]!;
      const outcome = await runner.run({ spec, ep, rule });
      expect(outcome, spec.id).toMatchObject({ ok: true, timedBy: 'wall-clock', providers: ['torch-cpu'] });
      if (outcome.ok) expect(outcome.kernelUs.every((v) => v > 0)).toBe(true);
    }
  }, 120_000);

  it('says which BLAS the products run on; OpenBLAS with its own pool follows OPENBLAS_NUM_THREADS', async () => {
    const info = await runner.start();
    const blas = info.blas ?? null;
    // Debian's torch uses whichever libblas.so.3 the alternatives pick: OpenBLAS, or the reference BLAS ('unknown').
    if (blas === null) return;
    expect(blas.library).toMatch(/^(OpenBLAS|MKL|unknown)/);
    if (!blas.library.startsWith('OpenBLAS') || blas.threading !== 'pthreads') return;
    const one = new TorchRunner({ python: SYSTEM_PYTHON, env: { ...process.env, OPENBLAS_NUM_THREADS: '1' } });
    try {
      expect((await one.start()).blas).toMatchObject({ threading: 'pthreads', threads: 1 });
    } finally {
      await one.close();
    }
  });

  it('runs a row of distinct weights (MatMul `distinct`) as one timed call', async () => {
    const ep = { name: 'torch-cpu', threads: 1 } as const;
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M: 1, K: 256, N: 256, distinct: 8 });
    expect(await runner.run({ spec, ep, rule })).toMatchObject({ ok: true, timedBy: 'wall-clock' });
  }, 60_000);

  it('at 2 threads times a row of distinct weights with the pool woken before each product, the wake taken off', async () => {
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M: 1, K: 256, N: 256, distinct: 8 });
    for (const threads of [2, 1]) {
      const outcome = await runner.run({ spec, ep: { name: 'torch-cpu', threads }, rule });
      expect(outcome, `${threads} threads`).toMatchObject({ ok: true, timedBy: 'wall-clock' });
      if (outcome.ok) expect(outcome.kernelUs.every((v) => v >= 0)).toBe(true);
    }
  }, 60_000);

  it("times a row of many-row products over distinct weights (a prompt's) at every thread count", async () => {
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M: 32, K: 256, N: 256, distinct: 8 });
    for (const threads of [2, 1]) {
      const outcome = await runner.run({ spec, ep: { name: 'torch-cpu', threads }, rule });
      expect(outcome, `${threads} threads`).toMatchObject({ ok: true, timedBy: 'wall-clock' });
    }
  }, 60_000);

  it('times chains of tiny eager ops: longer chains take longer, one point per length', async () => {
    const ep = { name: 'torch-cpu', threads: 1 } as const;
    const outcome = await runner.runOverhead({ ep, rule, lengths: [1, 64], rounds: 1 });
    expect(outcome).toMatchObject({ ok: true, traceNodeUs: null });
    if (!outcome.ok) return;
    expect(outcome.points.map((p) => p.nodes)).toEqual([1, 64]);
    expect(outcome.points[1]!.medianUs).toBeGreaterThan(outcome.points[0]!.medianUs);
  }, 60_000);

  it('a GPU target on a torch without CUDA: one line, the kernel not run', async () => {
    const spec = kernelsFor({ name: 'torch-cuda', deviceId: 0 }, 'quick')[0]!;
    const outcome = await runner.run({ spec, ep: { name: 'torch-cuda', deviceId: 0 }, rule });
    expect(outcome).toMatchObject({ ok: false, kind: 'ep-unavailable' });
    if (!outcome.ok)
      expect(outcome.error).toMatch(/^PyTorch \S+ in \S+ has no CUDA \(torch\.cuda\.is_available\(\) is False\)$/);
  });

  it('a GPU that stops answering fails its kernel as the provider gone (test switch)', async () => {
    const faulty = new TorchRunner({
      python: SYSTEM_PYTHON,
      env: { ...process.env, PIPEDEJAVU_TORCH_FAULT: 'gpu-lost-after:1' },
    });
    const ep = { name: 'torch-cpu', threads: 1 } as const;
    const spec = kernelsFor(ep, 'quick')[0]!;
    try {
      expect(await faulty.run({ spec, ep, rule })).toMatchObject({ ok: true });
      const lost = await faulty.run({ spec, ep, rule });
      expect(lost).toMatchObject({ ok: false, kind: 'ep-unavailable' });
      if (!lost.ok) expect(lost.error).toMatch(/the GPU stopped answering/);
    } finally {
      await faulty.close();
    }
  }, 60_000);

  it('a kill in the middle of a kernel is a crashed kernel; the next one starts a fresh Python', async () => {
    const ep = { name: 'torch-cpu', threads: 1 } as const;
    const big = kernelsFor(ep, 'quick').sort((x, y) => y.flops - x.flops)[0]!;
    const pending = runner.run({
      spec: big,
      ep,
      rule: { ...rule, minRepetitions: 50, maxRepetitions: 50, budgetMs: 10_000 },
    });
    setTimeout(() => runner.kill(), 300);
    expect(await pending).toMatchObject({ ok: false, kind: 'crashed' });
    const small = kernelsFor(ep, 'quick')[0]!;
    expect(await runner.run({ spec: small, ep, rule })).toMatchObject({ ok: true });
  }, 120_000);
});
