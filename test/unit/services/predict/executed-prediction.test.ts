import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import { fromNodeUs, ioBytes, predictWorkload } from '../../../../src-main/core/workload/predict-workload.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { RooflinePredictor } from '../../../../src-main/core/predictor/roofline-predictor.js';
import { predictModelExecuted } from '../../../../src-main/services/predict/model-prediction-service.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { pickDevice, predictModel } from '../../../../src-main/services/workload/workload-service.js';
import { deviceOverhead } from '../../../../src-main/services/workload/stored-device-figures.js';
import { recordOverhead, seededDb } from '../../../helpers/seeded-store.js';
import { device } from '../../../helpers/synthetic-samples.js';
import { attr, encodeModel } from '../../../../src-main/core/onnx/model-builder.js';
import { predictOnDevice } from '../../../../src-main/services/workload/workload-service.js';
import { cnnModel, floats, input as valueInfo, node } from '../../core/workload/sample-models.js';

const cls = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const input = { x: [1, 3, 48, 192] };

describe('whole-model overhead (pure)', () => {
  it('adds the per-run cost once, and the per-node cost to fallback estimates and free nodes only', () => {
    const w = workloadFromOnnx(cnnModel(2), { name: 'cnn' });
    const d = device('d', 100, 20, 1);
    const predictor = new RooflinePredictor();
    predictor.train([]);
    const bare = predictWorkload(w, predictor, d, 'inference');
    const withOverhead = predictWorkload(w, predictor, d, 'inference', { overhead: { runUs: 30, nodeUs: 0.5 } });
    const fallbacks = bare.nodes.filter((n) => n.how === 'fallback').length;
    const free = bare.nodes.filter((n) => n.how === 'free');
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((n) => n.timeUs === 0)).toBe(true);
    for (const n of withOverhead.nodes.filter((p) => p.how === 'free')) expect(n.timeUs).toBe(0.5);
    expect(withOverhead.totalUs).toBeCloseTo(bare.totalUs + 30 + 0.5 * (fallbacks + free.length), 6);
    expect(withOverhead.runOverheadUs).toBe(30);
    expect(withOverhead.overheadUs).toBeCloseTo(30 + 0.5 * bare.nodes.length, 6);
    expect(bare.overheadUs).toBe(0);
    expect(bare.graph).toBe('file');
    expect(bare.binding).toBeNull();
  });

  it("keeps the Node binding out of the device time and reports it apart, by the graph's input and output bytes", () => {
    const w = workloadFromOnnx(cnnModel(2), { name: 'cnn' });
    const d = device('d', 100, 20, 1);
    const predictor = new RooflinePredictor();
    predictor.train([]);
    const binding = { perCallUs: 12, nsPerByte: 0.05, points: [] };
    const mixed = predictWorkload(w, predictor, d, 'inference', { overhead: { runUs: 30, nodeUs: 0.5 } });
    const apart = predictWorkload(w, predictor, d, 'inference', { overhead: { runUs: 30, nodeUs: 0.5, binding } });
    expect(apart.runOverheadUs).toBe(18);
    expect(apart.totalUs).toBeCloseTo(mixed.totalUs - 12, 6);
    const io = ioBytes(w);
    expect(io).toBeGreaterThan(0);
    expect(apart.binding).toEqual({ perCallUs: 12, ioBytes: io, us: 12 + io * 0.00005 });
    expect(fromNodeUs(apart)).toBeCloseTo(apart.totalUs + 12 + io * 0.00005, 6);
  });
});

describe('nodes ORT runs on one thread, on a CPU profiled at more threads', () => {
  it('prices a nearest Resize as the 1-thread profile does, and an Add as the device does', () => {
    const bytes = encodeModel({
      opsetImports: [{ domain: '', version: 17 }],
      graph: {
        name: 'up',
        inputs: [valueInfo('x', [1, 32, 40, 40])],
        outputs: [valueInfo('y', [1, 32, 80, 80])],
        initializers: [floats('scales', [1, 1, 2, 2])],
        nodes: [
          node('Resize', ['x', '', 'scales'], ['up'], [attr.string('mode', 'nearest')]),
          node('Add', ['up', 'up'], ['y']),
        ],
      },
    });
    const w = workloadFromOnnx(bytes, { name: 'up' });
    const db = seededDb();
    trainPredictors(db, ['forest']);
    const many = predictOnDevice(db, w, pickDevice(db, 'cpu', 16), {});
    const one = predictOnDevice(db, w, pickDevice(db, 'cpu', 1), {});
    expect(many.nodes[0]!.timeUs).toBeCloseTo(one.nodes[0]!.timeUs, 9);
    expect(many.nodes[1]!.timeUs).not.toBeCloseTo(one.nodes[1]!.timeUs, 3);
  });
});

describe('predict-model on the graph ONNX Runtime executes (real ORT)', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  function storeWithOverhead(): ReturnType<typeof seededDb> {
    const db = seededDb();
    trainPredictors(db, ['roofline', 'forest']);
    recordOverhead(db, 1, { runUs: 20, nodeUs: 0.2, profilerNodeUs: 3, points: [] });
    return db;
  }

  it('predicts the executed graph, told in the file nodes and layers, with the per-run cost', async () => {
    const db = storeWithOverhead();
    const p = await predictModelExecuted(db, runner, cls, { inputs: input, device: 'cpu', threads: 1 });
    expect(p.graph).toBe('executed');
    expect(p.runOverheadUs).toBe(20);
    const file = predictModel(db, cls, { inputs: input, device: 'cpu', threads: 1 });
    // The user's nodes and layers, not the executed graph's.
    expect(p.nodes.map((n) => n.name)).toEqual(file.nodes.map((n) => n.name));
    expect(p.layers.map((l) => l.name)).toEqual(file.layers.map((l) => l.name));
    // Fewer nodes run than the file has (batch norms folded, activations fused).
    expect(p.executed?.length).toBeGreaterThan(0);
    expect(p.executed?.length).toBeLessThan(file.nodes.length);
    expect(p.executed?.every((e) => e.sourceNodes.length > 0)).toBe(true);
    // Every executed node's time lands in a layer: layers + run cost = total.
    const layers = p.layers.reduce((a, l) => a + l.timeUs, 0);
    expect(layers + p.runOverheadUs).toBeCloseTo(p.totalUs, 3);
    // A profile from before the binding was measured apart: none, and runUs keeps its per-call cost.
    const stored = deviceOverhead(db, pickDevice(db, 'cpu', 1));
    expect(stored?.profilerNodeUs).toBe(3);
    expect(stored?.binding).toBeNull();
    expect(p.binding).toBeNull();
  });

  it('caches the executed graph per model, EP and threads', async () => {
    const db = storeWithOverhead();
    const a = await predictModelExecuted(db, runner, cls, { inputs: input, device: 'cpu', threads: 1 });
    const b = await predictModelExecuted(db, runner, cls, { inputs: input, device: 'cpu', threads: 1 });
    expect(b.totalUs).toBe(a.totalUs);
  });

  it('predicts catalog models (no file to optimize) on their own graph', async () => {
    const db = storeWithOverhead();
    const p = await predictModelExecuted(db, runner, 'gpt2-small', { device: 'cpu', threads: 1, seq: 16 });
    expect(p.graph).toBe('file');
  });

  it('warns when the profile has no overhead measured (older profiles)', () => {
    const db = seededDb();
    trainPredictors(db, ['roofline']);
    const p = predictModel(db, cls, { inputs: input, device: 'cpu', threads: 1 });
    expect(p.warnings.some((w) => /re-profile/.test(w))).toBe(true);
  });
});
