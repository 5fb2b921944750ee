/** A benchmark tool that feeds the engine token ids runs no tokenizer; a text client pays the server's. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BENCH_TOOLS, feedsTokenIds, type BenchTool } from '../../../bench/engines/bench-tools.js';
import { loadEngineTable, type EngineCell } from '../../../bench/engines/cells.js';
import { cellQuery, predictEngineCell } from '../../../bench/engines/engine-cell.js';
import { HF_TOKENIZER_US_PER_TOKEN } from '../../../src-main/core/engines/request-path.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';

/** TensorRT-LLM 0.9's batch-1 first token of a 2,048-token prompt (the perf docs' 'Low Latency' table). */
const firstToken = (tool?: BenchTool): EngineCell => ({
  id: `tool-${tool ?? 'none'}`,
  source: 'test',
  ...(tool ? { tool } : {}),
  where: 'test',
  quote: 'test',
  engine: 'tensorrt-llm',
  engineVersion: '0.9.0',
  gpu: 'H100 SXM5',
  gpus: 1,
  kind: 'ttft',
  model: 'llama-3.1-8b',
  config: { weights: 'fp8', tp: 1, batch: 1, promptTokens: 2048, outputTokens: 1 },
  value: 100,
  unit: 'ms',
  metric: 'first-token latency',
});

/** TensorRT-LLM 0.14 behind Triton at 2 requests/s, prompts sent as text. */
const served = (tool?: BenchTool): EngineCell => ({
  ...firstToken(tool),
  id: `served-${tool ?? 'none'}`,
  engineVersion: '0.14.0',
  config: { weights: 'bf16', tp: 1, promptTokens: 467, outputTokens: 16, requestRate: 2, numPrompts: 50 },
  metric: 'mean time to first token',
});

const predicted = (c: EngineCell, db: ReturnType<typeof openDatabase>): number => {
  const r = predictEngineCell(c, db);
  if (!('predicted' in r)) throw new Error(r.notExpressible);
  return r.predicted;
};

describe('the tool an engine figure came from', () => {
  const db = openDatabase(':memory:');

  it('prices a token-id tool (gptSessionBenchmark) without the tokenizer the server would run', () => {
    expect(cellQuery(firstToken('gptSessionBenchmark')).request.engineSettings?.tokenIds).toBe(true);
    const ids = predicted(firstToken('gptSessionBenchmark'), db);
    const server = predicted(firstToken(), db);
    // The engine's own server (Triton's preprocessing model) tokenizes the 2,048 tokens first; the tool does not.
    expect(server - ids).toBeCloseTo((2048 * HF_TOKENIZER_US_PER_TOKEN) / 1e3, 6);
  });

  it("keeps the server's tokenizer for a text client (vLLM's benchmark_serving) at a serving rate", () => {
    expect(cellQuery(served('vllm-benchmark-serving')).request.engineSettings?.tokenIds).toBeUndefined();
    const text = predicted(served('vllm-benchmark-serving'), db);
    expect(text).toBe(predicted(served(), db));
    expect(text - predicted(served('trtllm-bench'), db)).toBeGreaterThan((467 * HF_TOKENIZER_US_PER_TOKEN) / 1e3 / 2);
  });

  it('names what every tool hands the engine, from its source', () => {
    for (const [name, t] of Object.entries(BENCH_TOOLS)) {
      expect(t.stated.length, name).toBeGreaterThan(40);
      expect(feedsTokenIds(name as BenchTool)).toBe(t.prompts === 'token-ids');
    }
    expect(feedsTokenIds(undefined)).toBe(false);
  });
});

describe('the table loader', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'engine-tools-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const source = { set: 'calibration', engine: 'tensorrt-llm', title: 't', who: 'w' };
  const raw = (id: string, src: string, tool?: string): Record<string, unknown> => {
    const { tool: _tool, id: _id, source: _source, ...rest } = firstToken();
    return { id, source: src, ...(tool ? { tool } : {}), ...rest };
  };

  it("gives a cell its source's tool, keeps a cell's own, and refuses a tool it does not know", () => {
    const file = {
      about: 'test',
      sources: [
        { id: 'static', ...source, tool: 'gptSessionBenchmark' },
        { id: 'mixed', ...source },
      ],
      cells: [raw('a', 'static'), raw('b', 'mixed', 'trtllm-bench'), raw('c', 'mixed'), raw('d', 'mixed', 'made-up')],
    };
    writeFileSync(path.join(dir, 'cells-test.json'), JSON.stringify(file));
    const t = loadEngineTable(dir);
    const tool = (id: string) => t.cells.find((c) => c.id === id)?.tool;
    expect([tool('a'), tool('b'), tool('c')]).toEqual(['gptSessionBenchmark', 'trtllm-bench', undefined]);
    expect(t.invalid.map((i) => [i.id, i.problem.split(':')[0]])).toEqual([['d', 'tool']]);
  });
});

describe("the shipped table's TensorRT-LLM cells", () => {
  it('name the tool their stated benchmark is (gptSessionBenchmark, gptManagerBenchmark, trtllm-bench)', () => {
    const t = loadEngineTable(path.join('bench', 'engines'));
    for (const c of t.cells) {
      const bench = String(c.config.benchmark ?? '');
      const tool = (['gptSessionBenchmark', 'gptManagerBenchmark', 'trtllm-bench'] as const).find((x) =>
        bench.startsWith(x),
      );
      if (tool) expect(c.tool, c.id).toBe(tool);
    }
  });
});
