/**
 * The app's channels for LoRA/QLoRA fine-tuning: `workload:fit` in mode finetune (the memory
 * table the Workloads view shows) and `plan:create` with `finetune` (the Plans view's
 * fine-tuning mode), dispatched as the renderer sends them.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src-main/app/app-core.js';
import type { FitView, PlanView } from '../../../src-main/api/view-models.js';
import { tempDir } from '../../helpers/cli.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

function open(): AppCore {
  const dir = tempDir('pdjv-app-ft-');
  core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http', inProcessJobs: true });
  return core;
}

async function waitJob(c: AppCore, jobId: string): Promise<{ state: string; result: unknown; error: string | null }> {
  for (;;) {
    const r = await c.dispatch('job:get', { jobId });
    if (!r.ok) throw new Error(r.error.message);
    const v = r.value as { state: string; result: unknown; error: string | null };
    if (v.state !== 'running') return v;
    await new Promise((res) => setTimeout(res, 20));
  }
}

describe('workload:fit in fine-tuning mode', () => {
  it('gives the LoRA and QLoRA rows at the rank and stack asked', async () => {
    const c = open();
    const r = await c.dispatch('workload:fit', {
      workload: 'llama-3.1-8b',
      mode: 'finetune',
      batch: 1,
      context: 2048,
      finetune: { rank: 16, stack: 'unsloth' },
      gpus: ['RTX 4090', 'RTX 3090'],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value as FitView;
    expect(v.mode).toBe('finetune');
    const labels = v.rows.map((row) => row.label);
    expect(labels.some((l) => /^LoRA\b.*r16/.test(l))).toBe(true);
    expect(labels.some((l) => /^QLoRA\b.*r16/.test(l))).toBe(true);
    expect(v.notes.join('\n')).toMatch(/Unsloth/);
    // QLoRA of an 8B model with recomputation fits a 24 GB card alone.
    const qlora = v.rows.find((row) => /^QLoRA.*full recompute/.test(row.label));
    expect(qlora?.alone).toContain('NVIDIA GeForce RTX 4090');
  });

  it('refuses a rank out of range and a target nobody has, in one line naming what works', async () => {
    const c = open();
    const rank = await c.dispatch('workload:fit', {
      workload: 'llama-3.1-8b',
      mode: 'finetune',
      finetune: { rank: 0 },
    });
    expect(rank).toMatchObject({ ok: false, error: { code: 'invalid' } });
    const target = await c.dispatch('workload:fit', {
      workload: 'llama-3.1-8b',
      mode: 'finetune',
      finetune: { targets: ['lm_head'] },
    });
    expect(target).toMatchObject({ ok: false, error: { code: 'invalid' } });
    if (!target.ok) {
      expect(target.error.message.split('\n')).toHaveLength(1);
      expect(target.error.message).toMatch(/q.*k.*v.*o.*gate.*up.*down/);
    }
  });
});

describe('plan:create with finetune', () => {
  it('plans QLoRA on two datasheet GPUs and answers the adapter planned', async () => {
    const c = open();
    const started = await c.dispatch('plan:create', {
      workload: 'llama-3.1-8b',
      mode: 'training',
      batch: 8,
      devices: 'none',
      virtual: ['NVIDIA GeForce RTX 4090', 'NVIDIA GeForce RTX 3090'],
      finetune: { adapter: 'qlora' },
    });
    expect(started.ok).toBe(true);
    const done = await waitJob(c, (started as { value: { jobId: string } }).value.jobId);
    expect(done.error).toBeNull();
    const view = done.result as PlanView;
    expect(view.finetune).toMatchObject({ adapter: 'qlora', rank: 16, alpha: 32, stack: 'peft' });
    expect(view.finetune?.targets).toEqual(['q', 'k', 'v', 'o', 'gate', 'up', 'down']);
    expect(view.plans.some((p) => p.feasible)).toBe(true);
    expect(view.exports?.kind === 'training' && view.exports.finetune).toBeTruthy();
  });
});
