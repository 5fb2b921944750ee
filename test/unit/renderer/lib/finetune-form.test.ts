import { describe, expect, it } from 'vitest';
import { planRequest } from '../../../../src-renderer/src/lib/forms.js';
import { finetuneText, type FinetuneForm } from '../../../../src-renderer/src/lib/finetune.js';
import { CHANNELS } from '../../../../src-main/api/contract.js';

const form = {
  workload: 'llama-3.1-8b',
  mode: 'finetune' as const,
  batch: 8,
  localDevices: [],
  machines: [],
  virtual: { 'NVIDIA GeForce RTX 4090': 1, 'NVIDIA GeForce RTX 3090': 1 },
  network: '',
  topN: 5,
};
const qlora: FinetuneForm = { adapter: 'qlora', rank: 16, alpha: '', targets: [], stack: 'peft' };

describe('the plan form in fine-tuning mode', () => {
  it('sends mode training with the adapter; no targets checked means all the model has', () => {
    const r = planRequest({ ...form, finetune: qlora, zero: '3', offload: 'no' });
    expect(r).toEqual({
      ok: true,
      request: {
        workload: 'llama-3.1-8b',
        mode: 'training',
        batch: 8,
        devices: 'none',
        topN: 5,
        virtual: ['NVIDIA GeForce RTX 4090', 'NVIDIA GeForce RTX 3090'],
        offload: 'no',
        zero: 3,
        finetune: { adapter: 'qlora', rank: 16, stack: 'peft' },
      },
    });
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
  });

  it('sends the rank, alpha, targets and stack chosen', () => {
    const r = planRequest({
      ...form,
      finetune: { adapter: 'lora', rank: '8', alpha: 16, targets: ['q', 'v'], stack: 'unsloth' },
    });
    expect(r).toMatchObject({
      ok: true,
      request: {
        mode: 'training',
        finetune: { adapter: 'lora', rank: 8, alpha: 16, targets: ['q', 'v'], stack: 'unsloth' },
      },
    });
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
  });

  it('refuses a bad rank or alpha in one line naming what works', () => {
    for (const rank of [0, 1025, 2.5, 'x', '']) {
      const r = planRequest({ ...form, finetune: { ...qlora, rank } });
      expect(r, String(rank)).toEqual({ ok: false, error: 'Rank: a whole number from 1 to 1024 (16 is usual).' });
    }
    const r = planRequest({ ...form, finetune: { ...qlora, alpha: -1 } });
    expect(r).toEqual({ ok: false, error: 'Alpha: a number above 0 (or empty for 2 × rank).' });
  });

  it('sends no finetune in training or inference mode', () => {
    const r = planRequest({ ...form, mode: 'training', finetune: qlora });
    expect(r.ok && r.request).not.toHaveProperty('finetune');
    expect(r.ok).toBe(true);
    const i = planRequest({ ...form, mode: 'inference', finetune: qlora });
    expect(i.ok && i.request).not.toHaveProperty('finetune');
    expect(i.ok).toBe(true);
  });
});

describe('finetuneText', () => {
  it('names the adapter, rank, alpha, targets and stack', () => {
    expect(
      finetuneText({
        adapter: 'qlora',
        rank: 16,
        alpha: 32,
        targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'],
        stack: 'peft',
      }),
    ).toBe('QLoRA r16 α32 on q,k,v,o,gate,up,down · PEFT');
    expect(finetuneText({ adapter: 'lora', rank: 8, alpha: 16, targets: ['q', 'v'], stack: 'unsloth' })).toBe(
      'LoRA r8 α16 on q,v · Unsloth',
    );
  });
});
