import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { summarize } from '../../../../src-main/core/profiler/timing-stats.js';
import { tempDir } from '../../../helpers/cli.js';

/** The outcome of a job that must succeed, narrowed; a failure fails the test with ORT's words. */
function succeeded<T extends { ok: boolean }>(o: T): Extract<T, { ok: true }> {
  if (!o.ok) throw new Error(`expected the job to run, it failed: ${JSON.stringify(o)}`);
  return o as Extract<T, { ok: true }>;
}

const rule = { warmupRuns: 1, minRepetitions: 5, maxRepetitions: 30, targetCi: 0.05, budgetMs: 100 };
const broken = path.resolve('test/helpers/broken-runner.mjs');

describe('kernel runner child process (real ONNX Runtime)', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('reports ORT version and bundled backends', async () => {
    const info = await runner.start();
    expect(info.ortVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.backends.find((b) => b.name === 'cpu')?.bundled).toBe(true);
  });

  it('times a MatMul with ORT profiling: kernel time per run, at most the wall time', async () => {
    const spec = makeKernel('MatMul', 'fp32', { B: 1, M: 128, N: 128, K: 128 });
    const o = succeeded(await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule }));
    expect(o.kernelUs.length).toBe(o.wallUs.length);
    expect(o.kernelUs.length).toBeGreaterThanOrEqual(5);
    expect(o.providers).toEqual(['CPUExecutionProvider']);
    expect(Object.keys(o.byOpUs)).toContain('MatMul');
    const k = summarize(o.kernelUs);
    const w = summarize(o.wallUs);
    expect(k.medianUs).toBeGreaterThan(0);
    expect(k.medianUs).toBeLessThanOrEqual(w.medianUs);
  });

  it('times a kernel whose output stays in ORT: the sink it ends in is neither timed nor reported', async () => {
    const spec = makeKernel('Add', 'fp32', { n: 1 << 20 });
    const o = succeeded(await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule }));
    expect(Object.values(o.nodeOps)).toEqual(['Add']);
    expect(Object.keys(o.byOpUs)).toEqual(['Add']);
    expect(o.kernelUs).toEqual(o.byOpUs.Add);
  });

  it('says the CUDA provider is missing instead of failing obscurely', async () => {
    const o = await runner.run({
      spec: makeKernel('Relu', 'fp32', { n: 64 }),
      ep: { name: 'cuda', deviceId: 0 },
      rule,
    });
    expect(o).toMatchObject({
      ok: false,
      kind: 'ep-unavailable',
      error: expect.stringMatching(/npm run install-cuda/),
    });
  });

  it('classifies a missing WebGPU adapter as an unavailable provider', async () => {
    const o = await runner.run({
      spec: makeKernel('Relu', 'fp32', { n: 64 }),
      ep: { name: 'webgpu', deviceId: 0 },
      rule,
    });
    // A machine with a GPU adapter runs it; one without says the provider is unavailable, nothing else.
    if (o.ok) expect(o.kernelUs.length).toBeGreaterThanOrEqual(rule.minRepetitions);
    else expect(o).toMatchObject({ kind: 'ep-unavailable', error: expect.stringMatching(/WebGPU/i) });
  });

  it('keeps working after a kernel fails', async () => {
    const failed = await runner.run({
      spec: makeKernel('Relu', 'fp32', { n: 256 }),
      ep: { name: 'cuda', deviceId: 0 },
      rule,
    });
    expect(failed.ok).toBe(false);
    const o = succeeded(
      await runner.run({ spec: makeKernel('Relu', 'fp32', { n: 256 }), ep: { name: 'cpu', threads: 1 }, rule }),
    );
    expect(o.kernelUs.length).toBeGreaterThanOrEqual(rule.minRepetitions);
    expect(Object.keys(o.byOpUs)).toContain('Relu');
  });
});

describe('kernel runner recovery', () => {
  it('turns a crashing child into a failed result and restarts for the next job', async () => {
    const flag = path.join(tempDir(), 'crashed');
    const runner = new KernelRunner({
      runnerPath: broken,
      env: { ...process.env, BROKEN_RUNNER: `crash-once-file:${flag}` },
    });
    const spec = makeKernel('Relu', 'fp32', { n: 64 });
    const first = await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule });
    expect(first).toMatchObject({ ok: false, kind: 'crashed', error: expect.stringMatching(/SIGSEGV/) });
    const second = succeeded(await runner.run({ spec, ep: { name: 'cpu', threads: 1 }, rule }));
    expect(second.kernelUs.length).toBeGreaterThan(0);
    await runner.close();
  });

  it('kills a hanging child at the job timeout', async () => {
    const runner = new KernelRunner({
      runnerPath: broken,
      jobTimeoutMs: 300,
      env: { ...process.env, BROKEN_RUNNER: 'hang' },
    });
    const started = Date.now();
    const o = await runner.run({ spec: makeKernel('Relu', 'fp32', { n: 64 }), ep: { name: 'cpu', threads: 1 }, rule });
    expect(o).toMatchObject({ ok: false, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
    await runner.close();
  });

  it('says so when the runner is not built', async () => {
    const runner = new KernelRunner({ runnerPath: '/nonexistent/kernel-runner.js' });
    await expect(runner.start()).rejects.toThrow(/npm run build/);
  });
});

describe('ORT error messages', () => {
  it('keeps the part a person can act on', async () => {
    const { cleanOrtMessage, classifyOrtError } = await import('../../../../src-main/adapters/ort/protocol.js');
    const webgpu =
      '/onnxruntime_src/onnxruntime/core/providers/webgpu/webgpu_context.cc:136 onnxruntime::webgpu::WebGpuContext::Initialize(const onnxruntime::webgpu::WebGpuContextConfig&)::<lambda()> adapter_result.status == wgpu::RequestAdapterStatus::Success was false. Failed to get a WebGPU adapter: No supported adapters';
    expect(cleanOrtMessage(webgpu)).toBe('Failed to get a WebGPU adapter: No supported adapters');
    expect(classifyOrtError(webgpu)).toBe('ep-unavailable');
    expect(classifyOrtError('Failed to allocate memory for requested buffer of size 1099511627776')).toBe(
      'out-of-memory',
    );
    expect(classifyOrtError('Could not find an implementation for Gelu(20) node')).toBe('unsupported');
  });

  it('tells a GPU that is gone from a kernel that failed, in one line', async () => {
    const { cleanOrtMessage, classifyOrtError } = await import('../../../../src-main/adapters/ort/protocol.js');
    // As ORT's CUDA_CALL and CUDA_CALL_THROW print them (cuda_call.cc).
    const offBus =
      '/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_call.cc:129 std::conditional_t<THRW, void, onnxruntime::common::Status> onnxruntime::CudaCall(ERRTYPE, const char*, const char*, SUCCTYPE, const char*, const char*, int) [with ERRTYPE = cudaError; bool THRW = true; SUCCTYPE = cudaError; std::conditional_t<THRW, void, common::Status> = void] CUDA failure 999: unknown error ; GPU=0 ; hostname=gpu-box ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_stream_handle.cc ; line=64 ; expr=cudaStreamSynchronize(stream_);';
    expect(classifyOrtError(offBus)).toBe('ep-unavailable');
    expect(cleanOrtMessage(offBus)).toBe('the GPU stopped answering (CUDA failure 999)');
    const sticky = 'CUDA error cudaErrorLaunchFailure:unspecified launch failure';
    expect(classifyOrtError(sticky)).toBe('ep-unavailable');
    expect(cleanOrtMessage(sticky)).toBe('the GPU stopped answering (cudaErrorLaunchFailure)');
    // A kernel's own launch problem leaves the device usable: that kernel fails, the profile goes on.
    expect(classifyOrtError('CUDA failure 9: invalid configuration argument ; GPU=0')).toBe('failed');
    expect(classifyOrtError('CUDA failure 2: out of memory ; GPU=0')).toBe('out-of-memory');
  });
});
