/** `plan`'s serving options: the batch by mode, the weight format (given or a GGUF file's), the objective. */
import { describe, expect, it } from 'vitest';
import { servingFields } from '../../../src-main/cli/serving-options.js';

describe('servingFields', () => {
  it('serves one sequence and trains 8 samples unless --batch is given', () => {
    expect(servingFields({}, 'inference', undefined, undefined, null).batch).toBe(1);
    expect(servingFields({}, 'training', undefined, undefined, null).batch).toBe(8);
    expect(servingFields({}, 'inference', 4, undefined, null).batch).toBe(4);
  });

  it('takes --weights over a GGUF file’s format; a float file sets the dtype unless --dtype is given', () => {
    expect(servingFields({ weights: 'int4' }, 'inference', undefined, undefined, 'q4_k')).toMatchObject({
      weights: 'int4',
    });
    expect(servingFields({}, 'inference', undefined, undefined, 'q4_k')).toEqual({ batch: 1, weights: 'q4_k' });
    expect(servingFields({}, 'inference', undefined, undefined, 'fp16')).toEqual({
      batch: 1,
      weights: 'fp16',
      dtype: 'fp16',
    });
    expect(servingFields({}, 'inference', undefined, 'bf16', 'fp16')).toMatchObject({ dtype: 'bf16' });
    // Training a GGUF decoder: its file format is not a serving format.
    expect(servingFields({}, 'training', undefined, undefined, 'q4_k')).toEqual({ batch: 8 });
  });

  it('reads the objective, output and prompt tokens, and refuses others in one line', () => {
    expect(
      servingFields({ objective: 'throughput', tokens: '64', prompt: '512' }, 'inference', undefined, undefined, null),
    ).toEqual({ batch: 1, objective: 'throughput', tokens: 64, prompt: 512 });
    expect(() => servingFields({ objective: 'fast' }, 'inference', undefined, undefined, null)).toThrow(
      '--objective takes latency or throughput; got "fast"',
    );
    expect(() => servingFields({ tokens: '0' }, 'inference', undefined, undefined, null)).toThrow(/--tokens takes/);
    expect(() => servingFields({ weights: 'q3' }, 'inference', undefined, undefined, null)).toThrow(
      '--weights takes fp32, fp16, bf16, int8, fp8, q8_0, int4, q4_k, q4_0; got "q3"',
    );
  });
});
