import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src-main/core/kernels/fill.js';
import { parseOnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { calibrationModels, type CalibrationModel } from '../../../../src-main/core/profiler/calibration-models.js';
import { workloadFromModel } from '../../../../src-main/core/workload/from-onnx.js';
import { checkModels } from '../../../helpers/onnx-oracle.js';
import { needOracle, oracleMissing } from '../../../helpers/oracle.js';

const models = calibrationModels();

/** What each model outputs, by design. */
const OUTPUTS: Record<string, { name: string; dims: number[] }> = {
  'resnet-blocks': { name: 'logits', dims: [1, 100] },
  'mobilenet-blocks': { name: 'features', dims: [1, 40, 28, 28] },
  'encoder-layer': { name: 'last_hidden_state', dims: [1, 64, 256] },
  'fpn-neck': { name: 'output', dims: [1, 32, 64, 64] },
};

/** Ops each model must hold: the architecture it stands for. */
const OPS: Record<string, string[]> = {
  'resnet-blocks': ['Conv', 'BatchNormalization', 'Relu', 'MaxPool', 'Add', 'GlobalAveragePool', 'Flatten', 'Gemm'],
  'mobilenet-blocks': [
    'Conv',
    'BatchNormalization',
    'Clip',
    'HardSwish',
    'HardSigmoid',
    'GlobalAveragePool',
    'Mul',
    'Add',
  ],
  'encoder-layer': ['MatMul', 'Add', 'Reshape', 'Transpose', 'Div', 'Softmax', 'LayerNormalization', 'Erf', 'Mul'],
  'fpn-neck': ['Conv', 'Relu', 'Resize', 'Concat', 'Sigmoid'],
};

const MAX_FLOPS = 300e6;
const MAX_WEIGHT_BYTES = 8 * 1024 * 1024;

function feeds(m: CalibrationModel): Record<string, ort.Tensor> {
  const r = seededRandom(7);
  return Object.fromEntries(
    m.inputs.map((i) => {
      const n = i.dims.reduce((a, d) => a * d, 1);
      return [
        i.name,
        new ort.Tensor(
          'float32',
          Float32Array.from({ length: n }, () => r() * 2 - 1),
          i.dims,
        ),
      ];
    }),
  );
}

describe('calibration models', () => {
  it('are the four named models, each with one static fp32 input', () => {
    expect(models.map((m) => m.name)).toEqual(['resnet-blocks', 'mobilenet-blocks', 'encoder-layer', 'fpn-neck']);
    expect(models.map((m) => m.inputs)).toEqual([
      [{ name: 'input', dims: [1, 3, 96, 96], dtype: 'fp32' }],
      [{ name: 'input', dims: [1, 3, 112, 112], dtype: 'fp32' }],
      [{ name: 'hidden_states', dims: [1, 64, 256], dtype: 'fp32' }],
      [{ name: 'input', dims: [1, 32, 64, 64], dtype: 'fp32' }],
    ]);
  });

  it('build the same bytes every time', () => {
    const again = calibrationModels();
    for (const [i, m] of models.entries())
      expect(Buffer.from(again[i]?.model ?? []).equals(Buffer.from(m.model))).toBe(true);
  });

  it('parse and import with every shape known, no fallback, under 300 MFLOP', () => {
    for (const m of models) {
      const parsed = parseOnnxModel(m.model);
      expect(parsed.opset).toBe(17);
      const ops = new Set(parsed.graph.nodes.map((n) => n.opType));
      for (const op of OPS[m.name] ?? []) expect(ops, `${m.name} has ${op}`).toContain(op);
      const inputs = Object.fromEntries(m.inputs.map((i) => [i.name, i.dims]));
      const w = workloadFromModel(parsed, { name: m.name, inputs });
      expect(w.warnings, m.name).toEqual([]);
      for (const n of w.nodes) {
        // No node here outputs a scalar: an empty shape would be an unknown one.
        for (const t of n.outputs) expect(t.dims.length, `${m.name} ${n.name} ${t.name}`).toBeGreaterThan(0);
        expect(n.opType === 'Flatten' || n.opType === 'Reshape' || n.opType === 'Identity' || n.kernel !== null).toBe(
          true,
        );
      }
      const flops = w.nodes.reduce((a, n) => a + n.flops, 0);
      expect(flops, m.name).toBeLessThan(MAX_FLOPS);
      expect(flops, m.name).toBeGreaterThan(20e6);
      expect(w.paramBytes, m.name).toBeLessThan(MAX_WEIGHT_BYTES);
      console.log(
        `${m.name}: ${(flops / 1e6).toFixed(1)} MFLOP, ${(w.paramBytes / 1024).toFixed(0)} KiB weights, ${w.nodes.length} nodes`,
      );
    }
  });

  it('run in ONNX Runtime (all optimizations, one thread) with finite outputs of the designed shapes', async () => {
    for (const m of models) {
      const session = await ort.InferenceSession.create(m.model, {
        graphOptimizationLevel: 'all',
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      });
      try {
        const expected = OUTPUTS[m.name];
        expect(session.outputNames).toEqual([expected?.name]);
        const input = feeds(m);
        const out = (await session.run(input))[expected?.name ?? ''];
        expect(out?.dims, m.name).toEqual(expected?.dims);
        const data = out?.data;
        if (!(data instanceof Float32Array)) throw new Error(`${m.name}: expected a float32 output`);
        expect(data.every(Number.isFinite), m.name).toBe(true);
        // Not constant: the weights carry the signal through.
        const spread =
          data.reduce((a, v) => Math.max(a, v), -Infinity) - data.reduce((a, v) => Math.min(a, v), Infinity);
        expect(spread, m.name).toBeGreaterThan(1e-3);
        // One quick timing (median of a few runs after warm-up), for the record only.
        for (let i = 0; i < 3; i++) await session.run(input);
        const times: number[] = [];
        for (let i = 0; i < 15; i++) {
          const t0 = performance.now();
          await session.run(input);
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        console.log(`${m.name}: ORT CPU 1 thread, median ${(times[7] ?? 0).toFixed(2)} ms`);
      } finally {
        await session.release();
      }
    }
  }, 60_000);

  const onnx = needOracle('onnx');
  it.skipIf(!onnx)(
    `pass the official ONNX checker (full_check)${onnx ? '' : `: skipped, ${oracleMissing('onnx')}`}`,
    { timeout: 60_000 },
    () => {
      const results = checkModels(models.map((m) => ({ name: m.name, bytes: m.model })));
      expect([...results].filter(([, r]) => r.error !== null).map(([n, r]) => `${n}: ${r.error}`)).toEqual([]);
      for (const m of models) {
        const parsed = results.get(m.name)?.model;
        expect(parsed?.inputs).toEqual(m.inputs.map((i) => ({ name: i.name, elemType: 1, dims: i.dims })));
        expect(parsed?.outputs).toEqual([{ name: OUTPUTS[m.name]?.name, elemType: 1, dims: OUTPUTS[m.name]?.dims }]);
      }
    },
  );
});
