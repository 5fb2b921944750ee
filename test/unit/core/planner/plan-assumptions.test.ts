/** The line a plan states its assumptions in, for training, fine-tuning, serving and a graph. */
import { describe, expect, it } from 'vitest';
import {
  ADAM_STACK,
  assumptionsLine,
  sequenceText,
  type PlanAssumptionsView,
} from '../../../../src-main/core/planner/plan-assumptions.js';
import { TRAINING_DEFAULTS } from '../../../helpers/plan-assumptions.js';

const training = TRAINING_DEFAULTS;

describe('assumptionsLine', () => {
  it('names the sequence and where it came from, the batch, the dtype and the training memory', () => {
    expect(training.stack).toEqual(ADAM_STACK);
    expect(assumptionsLine(training)).toBe(
      "Assumes: sequence 8,192 tokens (the model's default, of its 131,072), batch 8 (default), bf16, " +
        'mixed-precision Adam (16 bytes a parameter), fused attention (no s² scores kept)',
    );
    expect(
      assumptionsLine({ ...training, sequence: { value: 2048, asked: true }, batch: { value: 4, asked: true } }),
    ).toBe(
      'Assumes: sequence 2,048 tokens, batch 4, bf16, mixed-precision Adam (16 bytes a parameter), fused attention (no s² scores kept)',
    );
  });

  it('names a fine-tuning stack and an NF4 base apart from the compute dtype', () => {
    const qlora = { ...training, weights: 'nf4', stack: { name: 'unsloth', title: 'Unsloth' } } as const;
    expect(assumptionsLine(qlora)).toBe(
      "Assumes: sequence 8,192 tokens (the model's default, of its 131,072), batch 8 (default), nf4 weights, bf16 compute, stack Unsloth, fused attention (no s² scores kept)",
    );
  });

  it('serving: prompt and output tokens, the weight format and the engine with its version', () => {
    const served: PlanAssumptionsView = {
      ...training,
      sequence: { value: 1024, asked: false },
      output: { value: 256, asked: false },
      batch: { value: 1, asked: false },
      weights: 'q4_k',
      stack: null,
      engine: { name: 'llama.cpp', title: 'llama.cpp', version: 'b4500' },
    };
    expect(assumptionsLine(served)).toBe(
      'Assumes: prompt 1,024 + 256 output tokens (defaults), batch 1 (default), q4_k weights, bf16 compute, engine llama.cpp b4500',
    );
    expect(assumptionsLine({ ...served, sequence: { value: 512, asked: true } })).toMatch(
      /^Assumes: prompt 512 \+ 256 output tokens \(output: default\),/,
    );
    expect(
      assumptionsLine({
        ...served,
        weights: 'bf16',
        engine: { name: 'ideal', title: 'the kernel roofline', version: null },
      }),
    ).toBe(
      'Assumes: prompt 1,024 + 256 output tokens (defaults), batch 1 (default), bf16, no engine (the kernel roofline)',
    );
  });

  it('an image model by its side, a graph by its own shapes', () => {
    expect(
      assumptionsLine({
        ...training,
        sequence: null,
        modelContext: null,
        image: { value: 224, asked: false },
        dtype: 'fp32',
        weights: 'fp32',
        attention: null,
      }),
    ).toBe('Assumes: image 224 px (default), batch 8 (default), fp32, mixed-precision Adam (16 bytes a parameter)');
    expect(
      assumptionsLine({
        ...training,
        sequence: null,
        modelContext: null,
        stack: null,
        batch: { value: 1, asked: true },
        dtype: 'fp32',
        weights: 'fp32',
      }),
    ).toBe("Assumes: the graph's own shapes, batch 1, fp32");
  });
});

describe('sequenceText', () => {
  it('says a default is the model’s, and of what context, and an asked length plainly', () => {
    expect(sequenceText({ value: 1024, asked: false }, 1024)).toBe("1,024 tokens (the model's default)");
    expect(sequenceText({ value: 8192, asked: false }, null)).toBe("8,192 tokens (the model's default)");
    expect(sequenceText({ value: 300, asked: true }, 131072)).toBe('300 tokens');
  });
});
