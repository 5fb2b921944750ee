/**
 * The decode check's test decoder (test/helpers/decoder-step-model.ts) runs on ONNX Runtime's CPU
 * EP in both dataflows and is the decoder the decode model is told about: same parameters (its
 * initializers less the KV cache and the small constants), same logits.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../src-main/adapters/ort/kernel-runner.js';
import { parseOnnxModel } from '../../../src-main/core/onnx/onnx-parser.js';
import { tempDir } from '../../helpers/cli.js';
import { decoderStepModel, runDecoderOnce } from '../../helpers/decoder-step-model.js';

const config = { layers: 2, hidden: 128, heads: 4, kvHeads: 2, ffn: 352, vocab: 1000, context: 64 };

describe('the decode-step test decoder', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it.each(['concat', 'read-once'] as const)('%s: runs one step and has the parameters it claims', async (dataflow) => {
    const step = decoderStepModel({ ...config, dataflow });
    const model = parseOnnxModel(step.model);
    const elements = (dims: readonly number[]): number => dims.reduce((a, d) => a * d, 1);
    const cache = model.graph.initializers.filter((t) => /past_(key|value)/.test(t.name));
    expect(cache.map((t) => elements(t.dims))).toEqual(new Array(2 * config.layers).fill(2 * 32 * 64));
    const weights = model.graph.initializers.filter((t) => !/past_|shape\.|split|scale/.test(t.name));
    expect(weights.reduce((s, t) => s + elements(t.dims), 0)).toBe(step.shape.params);
    expect(step.shape.nodesPerStep).toBe(model.graph.nodes.length);

    const r = await runDecoderOnce(runner, step, tempDir(), `${dataflow}.onnx`);
    expect(r).toMatchObject({ ok: true, outputShapes: { logits: [1, 1, config.vocab] } });
  });
});
