/** An engine cell whose batch is one prompt copied and decoded greedily: refused for a mixture of experts only. */
import { describe, expect, it } from 'vitest';
import type { EngineCell } from '../../../bench/engines/cells.js';
import { predictEngineCell } from '../../../bench/engines/engine-cell.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';

const cell = (model: string, batch: number): EngineCell => ({
  id: `identical-${model}-b${batch}`,
  source: 'test',
  where: 'test',
  quote: 'test',
  engine: 'tensorrt-llm',
  engineVersion: '0.11.0',
  gpu: 'NVIDIA H100 80GB HBM3',
  gpus: 4,
  kind: 'throughput',
  model,
  config: { weights: 'fp16', tp: 4, batch, promptTokens: 128, outputTokens: 128, identicalPrompts: true },
  value: 1000,
  unit: 'tokens/s',
  metric: 'input+output tokens/s: batch x (prompt + output tokens) / wall time of the whole static batch',
});

describe('a batch of identical greedy prompts', () => {
  const db = openDatabase(':memory:');

  it('is refused for a mixture-of-experts model at batch > 1, saying why', () => {
    const r = predictEngineCell(cell('mixtral-8x7b', 16), db);
    expect('notExpressible' in r && r.notExpressible).toMatch(/same experts/);
  });

  it('is priced at batch 1, and for a dense model at any batch (identical sequences cost what distinct ones do)', () => {
    expect('error' in predictEngineCell(cell('mixtral-8x7b', 1), db)).toBe(true);
    expect('error' in predictEngineCell(cell('llama-3.1-8b', 16), db)).toBe(true);
  });
});
