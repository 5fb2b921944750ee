/** vLLM V0 pads a graphed decode step up to its captured batch sizes (1, 2, 4, 8, 16, ..., 256). */
import { describe, expect, it } from 'vitest';
import { graphBatch, stepCost } from '../../../../src-main/core/engines/engine-step.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import type { EngineRules } from '../../../../src-main/core/engines/engine-rules.js';
import { deployment } from './engine-fixtures.js';

const decode = (seqs: number, context = 600) => ({ decodeSeqs: seqs, decodeContext: seqs * context, prefill: [] });
const v060 = engineRules('vllm', { version: '0.6.0' });
const unpadded: EngineRules = { ...v060, host: { ...v060.host, graphBatchAlign: undefined } };
const dep = (engine: EngineRules) => deployment({ engine, model: 'llama-3.1-8b', gpu: 'A100 SXM4 80GB' });

describe('graphBatch', () => {
  it('rounds a batch up to 1, 2, 4, then the next multiple of 8 (vLLM V0 _get_graph_batch_size)', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 16, 17, 250, 256].map((b) => graphBatch(v060, b))).toEqual([
      1, 2, 4, 4, 8, 8, 16, 16, 24, 256, 256,
    ]);
  });

  it('keeps the batch where the engine states no padding', () => {
    expect(graphBatch(unpadded, 9)).toBe(9);
    expect(graphBatch(engineRules('sglang'), 9)).toBe(9);
  });

  it.each(['0.4.0', '0.4.3', '0.6.0'])('is stated for vLLM %s (V0), not for V1', (version) => {
    expect(engineRules('vllm', { version }).host.graphBatchAlign).toBe(8);
    expect(engineRules('vllm', { version: '0.8.2' }).host.graphBatchAlign).toBeUndefined();
  });
});

describe('a padded graphed decode step', () => {
  it('runs the weight GEMMs at the captured batch, attention at the real one', () => {
    const padded = stepCost(dep(v060), decode(9)).gpuUs;
    expect(padded).toBeGreaterThan(stepCost(dep(unpadded), decode(9)).gpuUs);
    // Sixteen real sequences read seven more sequences' cache than nine padded to sixteen.
    expect(padded).toBeLessThan(stepCost(dep(unpadded), decode(16)).gpuUs);
  });

  it('costs nothing more at a captured size', () => {
    expect(stepCost(dep(v060), decode(16)).gpuUs).toBe(stepCost(dep(unpadded), decode(16)).gpuUs);
  });

  it('does not pad a step outside the graphs: prompt work, or past the largest graph', () => {
    const withPrompt = { decodeSeqs: 9, decodeContext: 9 * 600, prefill: [{ tokens: 300, past: 0 }] };
    expect(stepCost(dep(v060), withPrompt).gpuUs).toBe(stepCost(dep(unpadded), withPrompt).gpuUs);
    expect(stepCost(dep(v060), decode(257)).gpuUs).toBe(stepCost(dep(unpadded), decode(257)).gpuUs);
  });
});
