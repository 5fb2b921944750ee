/** Generation on a profiled device, straight through the service (the seeded CPU store). */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../src-main/adapters/store/types.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { DTYPE_BYTES } from '../../../../src-main/core/domain/dtypes.js';
import { predictGeneration } from '../../../../src-main/services/predict/generation-service.js';
import { decodeBandwidthGBps, streamRateAt } from '../../../../src-main/services/predict/stream-rate.js';
import { loadTrainingData } from '../../../../src-main/services/predict/training-data.js';
import { pickDevice } from '../../../../src-main/services/workload/workload-service.js';
import { recordOverhead, storeMatMuls } from '../../../helpers/seeded-store.js';
import { predictModel } from '../../../../src-main/services/workload/workload-service.js';
import { cli, tempDir } from '../../../helpers/cli.js';
import { seededDb } from '../../../helpers/seeded-store.js';
import { trainedStore } from '../service-stores.js';
import path from 'node:path';

describe('predictGeneration', () => {
  it('predicts the time to first token, the decode steps and the memory of a catalog decoder', () => {
    const db = trainedStore();
    const g = predictGeneration(db, 'llama-3.1-8b', {
      device: 'cpu',
      prompt: 256,
      tokens: 16,
      dtype: 'fp32',
    });
    expect(g).toMatchObject({ workload: 'llama-3.1-8b', batch: 1, prompt: 256, tokens: 16, dtype: 'fp32' });
    // The prompt's forward pass with the LM head on the last position only.
    const full = predictModel(db, 'llama-3.1-8b', { device: 'cpu', seq: 256, dtype: 'fp32' });
    const head = full.layers.find((l) => l.name === 'head')?.timeUs ?? 0;
    expect(head).toBeGreaterThan(0);
    expect(g.ttftUs).toBeCloseTo(full.totalUs - head * (1 - 1 / 256), 3);
    expect(g.firstStep.bound).toBe('memory');
    expect(g.lastStep.bytes).toBeGreaterThan(g.firstStep.bytes);
    expect(g.tokensPerSecond).toBeCloseTo((16 * 1e6) / g.decodeUs, 6);
    expect(g.weightBytes).toBe(8_030_261_248 * 4);
    expect(g.kvCacheBytes).toBe(2 * 32 * 8 * 128 * 4 * (256 + 16));
    expect(g.deviceMemoryBytes).toBeGreaterThan(0);
    expect(g.fits).toBe(g.memoryBytes <= (g.deviceMemoryBytes ?? 0));
  });

  it('counts a PyTorch profile’s eager dispatch per op in the decode step, as a per-node cost, and names the engine', () => {
    const db = trainedStore();
    const threads = pickDevice(db, 'cpu').threads ?? 1;
    const step = (overhead: { nodeUs: number; dispatchUs?: number }): number => {
      recordOverhead(db, threads, { runUs: 10, profilerNodeUs: null, points: [], ...overhead });
      return predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', prompt: 16, tokens: 1 }).firstStep.stepUs;
    };
    const plain = step({ nodeUs: 1 });
    const dispatched = step({ nodeUs: 1, dispatchUs: 3 });
    expect(dispatched).toBeGreaterThan(plain);
    expect(dispatched).toBeCloseTo(step({ nodeUs: 4 }), 6);
    expect(predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', prompt: 16, tokens: 1 }).engine).toBe(
      'ONNX Runtime, CPU EP',
    );
  });

  it('prices the attention node by node: a decoder that concatenates its cache pays for the copies', () => {
    const db = trainedStore();
    const at = { device: 'cpu', prompt: 4000, tokens: 2, dtype: 'fp32' } as const;
    const once = predictGeneration(db, 'llama-3.1-8b', at);
    const concat = predictGeneration(db, 'llama-3.1-8b', { ...at, kvDataflow: 'concat' });
    expect(once.kvDataflow).toBe('read-once');
    expect(concat.kvDataflow).toBe('concat');
    expect(once.firstStep.attentionUs).toBeGreaterThan(0);
    expect(concat.firstStep.attentionUs).toBeGreaterThan(once.firstStep.attentionUs);
    expect(once.lastStep.attentionUs).toBeGreaterThan(once.firstStep.attentionUs);
    // The cache is read at no less than the rate the weights stream at: 32 layers x 2 x 8 x 128 x 4 B a token.
    const cacheUs = (32 * 2 * 8 * 128 * 4 * 4000) / (once.firstStep.bytes / once.firstStep.memoryUs);
    expect(once.firstStep.attentionUs).toBeGreaterThanOrEqual(cacheUs * 0.999);
  });

  it('refuses a context beyond the model’s and a model that does not generate, in one line', () => {
    const db = trainedStore();
    expect(() => predictGeneration(db, 'gpt2-small', { device: 'cpu', prompt: 1000, tokens: 100 })).toThrow(
      'gpt2-small takes at most 1024 tokens: the prompt (1000) and the generated tokens (100) make 1100',
    );
    expect(() => predictGeneration(db, 'bert-base', { device: 'cpu' })).toThrow(/^bert-base is not a decoder/);
  });

  it('refuses weights the dtype cannot take in one line, and takes int4 at 68 bytes per 128 weights', () => {
    const db = trainedStore();
    expect(() =>
      predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', prompt: 16, tokens: 1, dtype: 'fp16', weights: 'bf16' }),
    ).toThrow(
      '--weights bf16: the model computes in fp16, which takes weights as fp16, int8, fp8, q8_0, int4, q4_k, q4_0',
    );
    const int4 = predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', prompt: 16, tokens: 1, weights: 'int4' });
    expect(int4.weightBytes).toBe((8_030_261_248 * 68) / 128);
  });
});

/** Chains of distinct GEMVs stored in the seeded CPU's profile at `threads` (1 or 16): [d, weights, GB/s]. */
function storeChains(db: Database, chains: [number, number, number][], threads = 1): void {
  storeMatMuls(
    db,
    threads,
    chains.map(([d, distinct, gbps]) => {
      const shape = { B: 1, M: 1, N: d, K: d, distinct };
      return [shape, makeKernel('MatMul', 'fp32', shape).bytes / (gbps * 1e3)];
    }),
  );
}

describe('decode streams weights at the rate of the profile’s distinct-GEMV chains', () => {
  it('keeps the chains out of the predictors’ samples and reads the rate at the step’s matrix size', () => {
    const db = trainedStore();
    const device = pickDevice(db, 'cpu', 1);
    const before = predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', threads: 1, prompt: 16, tokens: 1 });
    storeChains(db, [
      [512, 128, 10],
      [2048, 8, 20],
    ]);
    const data = loadTrainingData(db);
    expect(data.streams.map((x) => x.shape['distinct'])).toEqual([128, 8]);
    expect(data.samples.some((x) => x.shape['distinct'])).toBe(false);
    // 1 MiB and 16 MiB matrices measured; 4 MiB lies halfway in log size.
    expect(decodeBandwidthGBps(db, device, undefined, 2 ** 20)).toBeCloseTo(10, 6);
    expect(decodeBandwidthGBps(db, device, undefined, 4 * 2 ** 20)).toBeCloseTo(15, 6);
    expect(decodeBandwidthGBps(db, device, undefined, 2 ** 30)).toBeCloseTo(20, 6);
    // Llama 3.1 8B's weight matrices are past 16 MiB: its steps stream at the 16 MiB chain's rate.
    const after = predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', threads: 1, prompt: 16, tokens: 1 });
    // The cache of the 16 prompt tokens is read by the attention, priced apart.
    const cacheRead = (after.kvCacheBytes * 16) / 17;
    expect(after.firstStep.memoryUs).toBeCloseTo((after.firstStep.bytes - cacheRead) / 20e3, 3);
    expect(after.firstStep.bytes).toBe(before.firstStep.bytes);
    expect(after.firstStep.memoryUs).not.toBeCloseTo(before.firstStep.memoryUs, 0);
  });

  it('says when the device streams slower at its thread count than at one thread, and not otherwise', () => {
    const at16 = (gbps: number): string[] => {
      const db = trainedStore();
      storeChains(db, [[2048, 8, 20]], 1);
      storeChains(db, [[2048, 8, gbps]], 16);
      return predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', threads: 16, prompt: 16, tokens: 1 }).warnings;
    };
    const said = (ws: string[]): string | undefined =>
      ws.find((w) => w.includes('decode is predicted faster at --threads 1'));
    expect(said(at16(18))).toBeUndefined();
    expect(said(at16(5))).toMatch(
      /^cpu at 16 threads streams a decode step's weights at 5\.0 GB\/s, at 1 thread at 20\.0 GB\/s/,
    );
    const db = trainedStore();
    storeChains(db, [[2048, 8, 20]], 1);
    const one = predictGeneration(db, 'llama-3.1-8b', { device: 'cpu', threads: 1, prompt: 16, tokens: 1 });
    expect(said(one.warnings)).toBeUndefined();
  });

  it('prices the prompt’s last-position LM head at no less than its weights streamed from memory', () => {
    const db = trainedStore();
    const at = { device: 'cpu', threads: 1, prompt: 16, tokens: 1 };
    const before = predictGeneration(db, 'llama-3.1-8b', at);
    // 1 GB/s: the head's 128256 x 4096 weights take longer to read than anything the profile prices.
    storeChains(db, [[2048, 8, 1]]);
    const after = predictGeneration(db, 'llama-3.1-8b', at);
    const headReadUs = (128_256 * 4096 * DTYPE_BYTES[after.dtype]) / 1e3;
    expect(after.ttftUs).toBeGreaterThan(before.ttftUs);
    expect(after.ttftUs).toBeGreaterThanOrEqual(headReadUs);
  });

  it('reads a rate between measured sizes log-linearly, the nearest outside them, the median without a size', () => {
    const rates = [
      { matrixBytes: 4, gbps: 30 },
      { matrixBytes: 1, gbps: 10 },
      { matrixBytes: 16, gbps: 20 },
    ];
    expect(streamRateAt(rates)).toBe(20);
    expect(streamRateAt(rates, 2)).toBeCloseTo(20, 9);
    expect(streamRateAt(rates, 8)).toBeCloseTo(25, 9);
    expect(streamRateAt(rates, 0.5)).toBe(10);
    expect(streamRateAt(rates, 64)).toBe(20);
  });
});

describe('pipedejavu predict-model --mode generate', () => {
  it('prints TTFT, tokens per second and memory; --prompt without generate is a usage error', async () => {
    const db = path.join(tempDir(), 'g.db');
    seededDb(db).close();
    await cli(['train', '--db', db, '--predictor', 'linear']);
    const r = await cli([
      'predict-model',
      'mistral-7b',
      '--db',
      db,
      '--device',
      'cpu',
      '--mode',
      'generate',
      '--prompt',
      '128',
      '--tokens',
      '8',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^mistral-7b on .*, bf16, batch 1: prompt 128 tokens, then 8 generated\nengine {15}ONNX Runtime, CPU EP \(the profile's measurements\)\ntime to first token/,
    );
    expect(r.stdout).toMatch(/tokens\/s/);
    const json = JSON.parse(
      (
        await cli([
          'predict-model',
          'mixtral-8x7b',
          '--db',
          db,
          '--device',
          'cpu',
          '--mode',
          'generate',
          '--prompt',
          '64',
          '--tokens',
          '4',
          '--json',
        ])
      ).stdout,
    ) as { kvCacheBytes: number; weightBytes: number };
    expect(json.weightBytes).toBe(46_702_792_704 * 2);
    const wrong = await cli(['predict-model', 'mistral-7b', '--db', db, '--device', 'cpu', '--prompt', '128']);
    expect(wrong).toMatchObject({
      code: 2,
      stderr: 'pipedejavu: error: --prompt, --tokens, --weights and --kv-dataflow go with --mode generate\n',
    });
    const mistral = (...more: string[]) => cli(['predict-model', 'mistral-7b', '--db', db, ...more]);
    const flow = await mistral(
      ...['--device', 'cpu', '--mode', 'generate', '--prompt', '64', '--tokens', '2'],
      '--kv-dataflow',
      'concat',
    );
    expect(flow.stdout).toMatch(/\nKV cache read {8}concat: the cache concatenated with the new token/);
    expect(flow.stdout).toMatch(/; attention \d/);
    expect(await mistral('--device', 'cpu', '--mode', 'generate', '--kv-dataflow', 'paged')).toMatchObject({
      code: 2,
      stderr: 'pipedejavu: error: --kv-dataflow takes read-once or concat; got "paged"\n',
    });
    expect(await mistral('--virtual', 'H100 SXM5', '--mode', 'generate', '--kv-dataflow', 'concat')).toMatchObject({
      code: 2,
      stderr:
        'pipedejavu: error: --kv-dataflow goes with a profiled --device: on --virtual the engine decides how it attends\n',
    });
    const q4 = await cli([
      ...['predict-model', 'llama-3.1-8b', '--db', db, '--device', 'cpu', '--mode', 'generate'],
      ...['--prompt', '64', '--tokens', '4', '--weights', 'q4_0', '--json'],
    ]);
    const parsed = JSON.parse(q4.stdout) as { weightBytes: number; weights: string };
    expect(parsed).toMatchObject({ weights: 'q4_0', weightBytes: (8_030_261_248 * 18) / 32 });
    const bad = await cli([
      ...['predict-model', 'llama-3.1-8b', '--db', db, '--device', 'cpu', '--mode', 'generate', '--weights', 'q3'],
    ]);
    expect(bad.stderr).toBe(
      'pipedejavu: error: --weights takes fp32, fp16, bf16, int8, fp8, q8_0, int4, q4_k, q4_0; got "q3"\n',
    );
  });
});
