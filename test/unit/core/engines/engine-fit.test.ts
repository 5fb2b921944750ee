/** Whether an engine holds a decoder and a context's KV cache on n of one GPU: its own memory, in the layouts it runs. */
import { describe, expect, it } from 'vitest';
import { getCatalogEntry } from '../../../../src-main/core/catalog/index.js';
import type { TransformerEntry } from '../../../../src-main/core/catalog/schema.js';
import { engineHolds } from '../../../../src-main/core/engines/engine-fit.js';
import { replicaKvTokens } from '../../../../src-main/core/engines/engine-memory.js';
import { engineRules } from '../../../../src-main/core/engines/engines.js';
import { datasheetFor, type GpuDatasheet } from '../../../../src-main/core/planner/cost/datasheets.js';
import { deployment } from './engine-fixtures.js';

const entry = getCatalogEntry('llama-3.1-70b') as TransformerEntry;
const sheet = (name: string): GpuDatasheet => datasheetFor(name) as GpuDatasheet;
const int4 = { engine: engineRules('vllm'), entry, format: 'int4' as const, kvCache: 'auto' as const };

describe('engineHolds', () => {
  it('holds exactly the cached tokens the engine leaves on the GPU, and not one more', () => {
    const room = replicaKvTokens(deployment({ model: 'llama-3.1-70b', gpu: 'RTX 6000 Ada', format: 'int4' }));
    expect(room).toBeGreaterThan(0);
    expect(engineHolds(int4, sheet('RTX 6000 Ada'), 1, room)).toBe(true);
    expect(engineHolds(int4, sheet('RTX 6000 Ada'), 1, room + 1)).toBe(false);
  });

  it('does not hold Llama 3.1 70B in int4 with 8,192 tokens on a 48 GB card (the engine keeps its head at 16 bits), but does on two', () => {
    expect(engineHolds(int4, sheet('RTX 6000 Ada'), 1, 8192)).toBe(false);
    expect(engineHolds(int4, sheet('RTX 6000 Ada'), 2, 8192)).toBe(true);
    expect(engineHolds(int4, sheet('H100 SXM5'), 1, 8192)).toBe(true);
  });

  it('splits only in layouts the engine runs: three GPUs as pipeline stages, since 3 does not divide 64 heads', () => {
    const tensorOnly = {
      ...int4,
      engine: { ...int4.engine, split: { ...int4.engine.split, pipeline: 'none' as const } },
    };
    const bf16 = { ...tensorOnly, format: 'bf16' as const };
    // bf16 70B (131 GiB) over three 80 GB GPUs: not as a tensor-parallel group of 3; as 3 pipeline stages, yes.
    expect(engineHolds(bf16, sheet('H100 SXM5'), 3, 1024)).toBe(false);
    expect(engineHolds({ ...bf16, engine: int4.engine }, sheet('H100 SXM5'), 3, 1024)).toBe(true);
    expect(engineHolds(bf16, sheet('H100 SXM5'), 4, 1024)).toBe(true);
  });
});
