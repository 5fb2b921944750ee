/** What a plan's answer says it assumed: asked values against the defaults, per mode. */
import { NO_STACK } from '../../../../src-main/core/planner/stacks/stacks.js';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { planWorkload, type PlanRequest } from '../../../../src-main/services/plan/plan-service.js';
import { TRAINING_DEFAULTS } from '../../../helpers/plan-assumptions.js';

const onA4090: Pick<PlanRequest, 'devices' | 'virtual'> = { devices: 'none', virtual: ['RTX 4090'] };

describe('plan assumptions', () => {
  it('training a catalog decoder: its default sequence, the default batch, its dtype and mixed-precision Adam', () => {
    const r = planWorkload(openDatabase(':memory:'), { workload: 'llama-3.1-8b', mode: 'training', ...onA4090 });
    // No --stack: any of them, stated with what it assumes.
    expect(r.assumptions).toEqual({
      ...TRAINING_DEFAULTS,
      trainingStack: { name: 'any', title: NO_STACK.title, assumes: NO_STACK.assumes },
    });
  });

  it('serving: the prompt asked by --seq, the default output, the weight format and the engine with its version', () => {
    const r = planWorkload(openDatabase(':memory:'), {
      workload: 'llama-3.1-8b',
      mode: 'inference',
      seq: 2048,
      weights: 'q4_k',
      ...onA4090,
    });
    expect(r.assumptions).toMatchObject({
      sequence: { value: 2048, asked: true },
      output: { value: 256, asked: false },
      batch: { value: 1, asked: false },
      weights: 'q4_k',
      dtype: 'bf16',
      stack: null,
      engine: { name: 'llama.cpp', title: 'llama.cpp' },
    });
    expect(r.assumptions.engine?.version).toBe(r.engine?.since);
  });

  it('fine-tuning with QLoRA: an NF4 base and the stack; an image model by its side', () => {
    const tuned = planWorkload(openDatabase(':memory:'), {
      workload: 'llama-3.1-8b',
      mode: 'training',
      seq: 1024,
      batch: 2,
      finetune: { adapter: 'qlora', stack: 'torchtune' },
      ...onA4090,
    });
    expect(tuned.assumptions).toMatchObject({
      sequence: { value: 1024, asked: true },
      batch: { value: 2, asked: true },
      weights: 'nf4',
      stack: { name: 'torchtune', title: 'torchtune' },
    });
    const resnet = planWorkload(openDatabase(':memory:'), { workload: 'resnet50', mode: 'training', ...onA4090 });
    expect(resnet.assumptions).toMatchObject({
      sequence: null,
      modelContext: null,
      image: { value: 224, asked: false },
    });
  });
});
