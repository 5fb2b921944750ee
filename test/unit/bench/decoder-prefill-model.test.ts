/**
 * The prefill check's test decoder (test/helpers/decoder-prefill-model.ts) runs a prompt on ONNX
 * Runtime's CPU EP, and the catalog entry it hands `predict-model --mode generate` is the same
 * decoder: the same parameters as its initializers (less the rotary table, the mask and the
 * shapes) and as the decode step's decoder, and the same linear layers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../src-main/adapters/ort/kernel-runner.js';
import { entryWorkload } from '../../../src-main/core/catalog/index.js';
import { parseOnnxModel } from '../../../src-main/core/onnx/onnx-parser.js';
import { tempDir } from '../../helpers/cli.js';
import { decoderPrefillModel } from '../../helpers/decoder-prefill-model.js';
import { decoderStepModel, runDecoderOnce } from '../../helpers/decoder-step-model.js';

const config = { layers: 2, hidden: 128, heads: 4, kvHeads: 2, ffn: 352, vocab: 1000 };
const elements = (dims: readonly number[]): number => dims.reduce((a, d) => a * d, 1);

describe('the prefill test decoder', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('is the decoder its catalog entry describes, with the parameters of the decode step', () => {
    const prefill = decoderPrefillModel({ ...config, prompt: 16 });
    const model = parseOnnxModel(prefill.model);
    const weights = model.graph.initializers.filter((t) => !/rope|mask|shape\.|split|scale|last_position/.test(t.name));
    const params = weights.reduce((s, t) => s + elements(t.dims), 0);
    const workload = entryWorkload(prefill.entry, { seq: 16, batch: 1, dtype: 'fp32' });
    expect(workload.nodes.reduce((s, n) => s + n.params, 0)).toBe(params);
    expect(decoderStepModel({ ...config, context: 16 }).shape.params).toBe(params);
    const linear = (nodes: readonly { params: number; opType: string }[]): number =>
      nodes.filter((n) => n.opType === 'MatMul' && n.params > 0).length;
    const matmulsWithWeights = model.graph.nodes.filter(
      (n) => n.opType === 'MatMul' && weights.some((w) => w.name === n.inputs[1]),
    );
    expect(matmulsWithWeights).toHaveLength(linear(workload.nodes));
  });

  it('runs a prompt and gives the last position its logits', async () => {
    const prefill = decoderPrefillModel({ ...config, prompt: 16 });
    const r = await runDecoderOnce(runner, prefill, tempDir(), 'prefill.onnx');
    expect(r).toMatchObject({ ok: true, outputShapes: { logits: [1, 1, config.vocab] } });
  });
});
