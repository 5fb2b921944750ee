import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProfileRunner } from '../../../../src-main/adapters/ort/profile-runner.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { childProcessLauncher, type ProcessLauncher } from '../../../../src-main/adapters/process/launcher.js';

const rule = { warmupRuns: 0, minRepetitions: 1, maxRepetitions: 1, targetCi: 1, budgetMs: 10 };
const envRunner = path.resolve('test/helpers/broken-runner.mjs');

/** The error a job came back with: the child's GLIBC_TUNABLES, in the `env` mode of the helper runner. */
const tunables = (o: { ok: boolean; error?: string }): string => (o.ok ? '' : (o.error ?? ''));

describe('the profiler runner: kernels in a child that keeps freed memory, the rest in a plain one', () => {
  const env = { ...process.env, BROKEN_RUNNER: 'env', GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' };
  const runner = ProfileRunner.local({ runnerPath: envRunner, env });
  afterAll(() => runner.close());

  it("times a kernel in the child with the allocator tunables, keeping the user's own", async () => {
    const spec = makeKernel('Add', 'fp32', { n: 1024 });
    const got = tunables(await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule }));
    expect(got).toContain('glibc.malloc.arena_max=2');
    expect(got).toContain('glibc.malloc.mmap_threshold=33554432');
    expect(got).toContain('glibc.malloc.trim_threshold=');
  });

  it('runs models, overhead chains and graph optimization in a child allocating as the user process does', async () => {
    const ep = { name: 'cpu', threads: 1 } as const;
    const model = await runner.runModel({ modelPath: 'm.onnx', inputs: [], ep, rule });
    const chains = await runner.runOverhead({ ep, rule, lengths: [1], rounds: 1 });
    const graph = await runner.optimize({ modelPath: 'm.onnx', ep, outPath: 'o.onnx', weightsFile: 'o.bin' });
    for (const o of [model, chains, graph]) expect(tunables(o)).toBe('GLIBC_TUNABLES=glibc.malloc.arena_max=2');
  });
});

describe('starting the profiler runner', () => {
  it('starts both children at once, and callers who ask together share them', async () => {
    let forks = 0;
    const launcher: ProcessLauncher = { fork: (p, o) => (forks++, childProcessLauncher.fork(p, o)) };
    const runner = ProfileRunner.local({
      runnerPath: envRunner,
      env: { ...process.env, BROKEN_RUNNER: 'env' },
      launcher,
    });
    try {
      const infos = await Promise.all([runner.start(), runner.start()]);
      expect(infos.map((i) => i.ortVersion)).toEqual(['broken-1.0', 'broken-1.0']);
      expect(forks).toBe(2);
      await runner.runModel({ modelPath: 'm.onnx', inputs: [], ep: { name: 'cpu', threads: 1 }, rule });
      expect(forks).toBe(2);
    } finally {
      await runner.close();
    }
  });
});
