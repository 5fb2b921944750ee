/** The Library's comparison (CompareState, a `.svelte.ts` class) against the real app core in this process. */
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-main/api/client.js';
import type { AppCore } from '../../../../src-main/app/app-core.js';
import { CompareState } from '../../../../src-renderer/src/state/compare.svelte.js';
import { machineLab } from '../../../helpers/machine-lab.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

async function lab(): Promise<{ lib: CompareState; core: AppCore; ids: string[] }> {
  const { core: c, ids } = await machineLab('pdjv-ui-');
  core = c;
  const client = createApiClient({
    kind: 'http',
    invoke: (channel, payload) => c.dispatch(channel, payload),
    subscribe: (listener) => c.jobs.subscribe(listener),
  });
  return { lib: new CompareState(client), core: c, ids };
}

const until = async (cond: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('CompareState', () => {
  it('compares every machine until the user picks, then the picked ones in the list order', async () => {
    const { lib, ids } = await lab();
    lib.setMachines(ids);
    expect(lib.pickedIds).toEqual(ids);
    await until(() => lib.comparison.value?.machines.length === 3);
    expect(lib.comparison.value?.machines.map((m) => m.label)).toEqual(['lab-ws-01', 'gpu-a', 'gpu-b']);

    // Two left: still a comparison; one left: none, and no error.
    lib.toggle(ids[1] as string);
    await lib.run();
    expect(lib.comparison.value?.machines.map((m) => m.id)).toEqual([ids[0], ids[2]]);
    lib.toggle(ids[0] as string);
    await lib.run();
    expect(lib.comparison.value).toBeUndefined();
    expect(lib.comparison.error).toBeNull();
    // Picked again, it comes back in the list's order; a new list keeps the user's picks, less removed ones.
    lib.toggle(ids[1] as string);
    lib.setMachines(ids);
    expect(lib.pickedIds).toEqual([ids[1], ids[2]]);
    await until(() => lib.comparison.value?.machines.length === 2 && !lib.comparison.loading);
    expect(lib.comparison.value?.machines.map((m) => m.label)).toEqual(['gpu-a', 'gpu-b']);
    lib.setMachines([ids[0] as string, ids[1] as string, 'imported-later']);
    lib.add('imported-later');
    expect(lib.pickedIds).toEqual([ids[1], 'imported-later']);
  });

  it('compares at most four machines until the user picks', async () => {
    const { lib, ids } = await lab();
    const more = [...ids, 'x1', 'x2'];
    lib.setMachines(more);
    expect(lib.pickedIds).toEqual(more.slice(0, 4));
    lib.add('x2');
    expect(lib.pickedIds).toEqual(more.slice(0, 4));
    await lib.run();
    expect(lib.comparison.error).toMatch(/no machine "x1"/);
  });

  it("shows a workload's failure on its own, keeping the comparison", async () => {
    const { lib, core: c, ids } = await lab();
    lib.setMachines(ids);
    await until(() => lib.comparison.value !== undefined);
    lib.setWorkload('bert-base');
    await lib.run();
    expect(lib.comparison.value?.machines).toHaveLength(3);
    expect(lib.prediction.error).toMatch(/train/);

    await c.dispatch('predictor:train', { predictors: ['analytical'] });
    await until(() => c.jobs.list().every((j) => j.state !== 'running'));
    await lib.run();
    expect(lib.prediction.error).toBeNull();
    expect(lib.prediction.value?.workload?.name).toBe('bert-base');
    const times = lib.prediction.value?.machines.flatMap((m) => m.devices.map((d) => d.predictedUs));
    expect(times).toHaveLength(6);
    for (const t of times ?? []) expect(t).toBeGreaterThan(0);
    lib.setWorkload('');
    await lib.run();
    expect(lib.prediction.value).toBeUndefined();
  }, 60_000);
});
