/** Which llama.cpp rules an engine cell is priced with: a PR branch "merged <Month YYYY>" takes that month's rules. */
import { describe, expect, it } from 'vitest';
import type { EngineCell } from '../../../bench/engines/cells.js';
import { cellQuery } from '../../../bench/engines/engine-cell.js';

const cell = (engine: string, engineVersion: string): EngineCell => ({
  id: `t-${engineVersion}`,
  source: 's',
  where: 'w',
  quote: 'q',
  engine,
  engineVersion,
  gpu: 'RTX 3090',
  gpus: 1,
  kind: 'decode',
  model: 'llama-7b',
  config: { batch: 1, outputTokens: 128, weights: 'q4_0' },
  value: 100,
  unit: 'tokens/s',
  metric: 'tokens/s',
});
const version = (c: EngineCell): string | undefined => cellQuery(c).request.engineVersion;

describe('an engine cell measured on a llama.cpp PR branch', () => {
  it('merged in January 2024 is priced with the rules of then (no CUDA graphs, no MMQ on tensor cores), not the newest', () => {
    expect(version(cell('llama.cpp', 'PR #4766 branch sl/backend-sched (merged January 2024)'))).toBe('b1500');
  });

  it('merged in April 2024 takes the -ub pipelining rules of March, before CUDA graphs (May)', () => {
    expect(version(cell('llama.cpp', 'PR #6646 (merged April 2024)'))).toBe('b2413');
  });

  it("merged in June 2024 (the MMQ tensor-core PRs) takes the month's last rules, MMQ on tensor cores", () => {
    expect(version(cell('llama.cpp', 'PR #7676 branch cuda-ptx-mma-7 (merged June 2024)'))).toBe('b3140');
  });

  it('keeps a stated build number or date over the month', () => {
    expect(version(cell('llama.cpp', 'build 32d9f7d9 (1786)'))).toBe('b1786');
    expect(version(cell('llama.cpp', 'master of 2024-04-19'))).toBe('b2413');
  });

  it("leaves other engines' versions as they were read", () => {
    expect(version(cell('vllm', 'PR #6848 (merged July 2024, vLLM ~0.5.3)'))).toBe('0.5.3');
  });
});
