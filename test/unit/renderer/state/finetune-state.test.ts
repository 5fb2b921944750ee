/**
 * The Plans view's fine-tuning mode (PlansState) and the Workloads view's fit table in
 * fine-tuning mode (WorkloadsState) against the real app core in this process.
 */
import { describe, expect, it } from 'vitest';
import { JobHub } from '../../../../src-renderer/src/state/jobs.svelte.js';
import { PlansState } from '../../../../src-renderer/src/state/plans.svelte.js';
import { WorkloadsState } from '../../../../src-renderer/src/state/workloads.svelte.js';
import { inProcessClients } from '../../../helpers/in-process-app.js';

const inProcessClient = inProcessClients('pdjv-ui-ft-');

const until = async (cond: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('PlansState in fine-tuning mode', () => {
  it('starts at LoRA r16 on all targets with PEFT, toggles targets, and plans QLoRA on two datasheet GPUs', async () => {
    const client = inProcessClient();
    const hub = new JobHub(client);
    hub.connect();
    const ps = new PlansState(client, hub);
    ps.mode = 'finetune';
    expect(ps.batch).toBe(8);
    expect(ps.finetune).toEqual({ adapter: 'lora', rank: 16, alpha: '', targets: [], stack: 'peft' });
    ps.toggleTarget('q');
    ps.toggleTarget('v');
    expect(ps.finetune.targets).toEqual(['q', 'v']);
    ps.toggleTarget('q');
    ps.toggleTarget('v');
    expect(ps.finetune.targets).toEqual([]);
    ps.finetune.adapter = 'qlora';
    ps.workload = 'llama-3.1-8b';
    ps.setVirtualCount('NVIDIA GeForce RTX 4090', 1);
    ps.setVirtualCount('NVIDIA GeForce RTX 3090', 1);
    await ps.run();
    expect(ps.formError).toBeNull();
    await until(() => ps.job.phase === 'done' || ps.job.phase === 'failed');
    const view = ps.job.result;
    expect(view?.mode).toBe('training');
    expect(view?.finetune).toEqual({
      adapter: 'qlora',
      rank: 16,
      alpha: 32,
      targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'],
      stack: 'peft',
    });
    expect(view?.plans[ps.selectedPlan]?.feasible).toBe(true);
    hub.disconnect();
  });
});

describe('WorkloadsState fit in fine-tuning mode', () => {
  it('asks for the LoRA and QLoRA rows with the stack chosen, apart from the prediction mode', async () => {
    const client = inProcessClient();
    const ws = new WorkloadsState(client, new JobHub(client));
    ws.selected = 'llama-3.1-8b';
    ws.mode = 'training';
    expect(ws.fitMode).toBe('inference');
    expect(ws.fitRequest()).toMatchObject({ mode: 'inference' });
    ws.fitMode = 'finetune';
    ws.fitStack = 'unsloth';
    expect(ws.fitRequest()).toEqual({
      workload: 'llama-3.1-8b',
      mode: 'finetune',
      batch: 1,
      finetune: { stack: 'unsloth' },
    });
    await ws.loadFit();
    expect(ws.fit.error).toBeNull();
    const labels = ws.fit.value?.rows.map((r) => r.label) ?? [];
    expect(labels.filter((l) => l.startsWith('LoRA')).length).toBeGreaterThan(0);
    expect(labels.filter((l) => l.startsWith('QLoRA')).length).toBeGreaterThan(0);
    expect(ws.fit.value?.notes.join('\n')).toMatch(/Unsloth/);
    ws.fitMode = 'training';
    expect(ws.fitRequest()).toEqual({ workload: 'llama-3.1-8b', mode: 'training', batch: 1 });
  });
});
