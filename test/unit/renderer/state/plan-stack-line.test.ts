/**
 * The Plans view states a training plan's stack as `plan` does (PlansState.stackLine, the CLI's
 * Stack line): the optimizer step with a stack, and without one the step its job.sbatch runs;
 * through the app's own API in this process.
 */
import { describe, expect, it } from 'vitest';
import { JobHub } from '../../../../src-renderer/src/state/jobs.svelte.js';
import { PlansState } from '../../../../src-renderer/src/state/plans.svelte.js';
import { inProcessClients } from '../../../helpers/in-process-app.js';

const inProcessClient = inProcessClients('pdjv-ui-stack-');

const until = async (cond: () => boolean, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** gpt2-small training on 8 datasheet H100s, with `stack` ('' for any). */
async function stackLineOf(stack: '' | 'fsdp'): Promise<string | null> {
  const client = inProcessClient();
  const hub = new JobHub(client);
  hub.connect();
  const ps = new PlansState(client, hub);
  ps.mode = 'training';
  ps.workload = 'gpt2-small';
  ps.stack = stack;
  ps.setVirtualCount('NVIDIA H100 SXM5 80GB', 8);
  expect(ps.stackLine).toBeNull();
  await ps.run();
  expect(ps.formError).toBeNull();
  await until(() => ps.job.phase === 'done' || ps.job.phase === 'failed');
  expect(ps.job.phase).toBe('done');
  hub.disconnect();
  return ps.stackLine;
}

describe('PlansState.stackLine', () => {
  it("states the stack's optimizer step, and without a stack the one its export runs", async () => {
    const fsdp = await stackLineOf('fsdp');
    expect(fsdp).toMatch(/^Stack PyTorch FSDP \(data parallel only\): /);
    expect(fsdp).toContain("optimizer step on the GPUs: 92 bytes of memory traffic a parameter of a GPU's share");
    const any = await stackLineOf('');
    expect(any).toMatch(/^Stack: any \(--stack to pick one\): /);
    expect(any).toContain(
      "optimizer step on the GPUs: 80 bytes of memory traffic a parameter of a GPU's share, as job.sbatch's train_pipeline.py runs it",
    );
  });
});
