/** A real model run on ONNX Runtime's CPU EP, told per node and per layer beside the prediction. */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../src-main/adapters/ort/kernel-runner.js';
import { layerComparison, measureModel } from '../../../src-main/services/measure-model-service.js';
import { trainPredictors } from '../../../src-main/services/predictor-service.js';
import { resolveWorkload } from '../../../src-main/services/workload-service.js';
import { seededDb } from '../../helpers/seeded-store.js';

const cls = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const inputs = { x: [1, 3, 48, 192] };

describe('measureModel and layerComparison (real ORT)', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('sums the measured nodes by the workload’s layers, beside each layer’s prediction', async () => {
    const db = seededDb();
    trainPredictors(db, ['roofline']);
    const m = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1 });
    expect(m.medianMs).toBeGreaterThan(0);
    const layers = layerComparison(db, cls, m, { inputs });
    const { workload } = resolveWorkload(db, cls, { inputs });
    expect(layers.map((l) => l.name)).toEqual(workload.layers.map((l) => l.name));
    const named = new Set(workload.nodes.map((n) => n.name));
    const measuredNamed = m.nodes.filter((n) => named.has(n.name)).reduce((s, n) => s + n.measuredUs, 0);
    expect(layers.reduce((s, l) => s + l.measuredUs, 0)).toBeCloseTo(measuredNamed, 6);
    expect(layers.some((l) => l.measuredUs > 0)).toBe(true);
    expect(layers.every((l) => l.predictedUs >= 0)).toBe(true);
  });

  it('refuses a catalog model in one line: it has no weights to run', async () => {
    await expect(measureModel(seededDb(), runner, 'gpt2-small', { device: 'cpu' })).rejects.toThrow(
      /catalog models have no weights to run/,
    );
  });
});
