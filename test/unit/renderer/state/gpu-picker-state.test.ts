/**
 * The Plans view's datasheet GPU picker (PlansState.gpuSearch, shownGpus) over the GPUs app:info
 * sends, against the real app core in this process: sorted, searched as `--virtual` reads names.
 */
import { describe, expect, it } from 'vitest';
import { JobHub } from '../../../../src-renderer/src/state/jobs.svelte.js';
import { PlansState } from '../../../../src-renderer/src/state/plans.svelte.js';
import { GPU_DATASHEETS } from '../../../../src-main/core/planner/cost/datasheets.js';
import { inProcessClients } from '../../../helpers/in-process-app.js';

const inProcessClient = inProcessClients('pdjv-ui-gpus-');

describe('the Plans view datasheet GPU picker', () => {
  it('gets every GPU newest architecture first, the most memory first within one', async () => {
    const client = inProcessClient();
    const { datasheetGpus: gpus } = await client.call('app:info', {});
    expect(gpus).toHaveLength(GPU_DATASHEETS.length);
    expect(gpus[0]).toMatchObject({ architecture: 'Blackwell' });
    expect(gpus.at(-1)).toMatchObject({ architecture: 'Volta' });
    const hopper = gpus.filter((g) => g.architecture === 'Hopper').map((g) => g.name);
    expect(hopper).toEqual(['NVIDIA H200 SXM 141GB', 'NVIDIA H100 SXM5 80GB', 'NVIDIA H100 PCIe 80GB']);
    expect(gpus.find((g) => g.name === 'NVIDIA GeForce RTX 4090')).toEqual({
      name: 'NVIDIA GeForce RTX 4090',
      architecture: 'Ada',
      formFactor: 'pcie',
      memoryGiB: 24,
      names: ['rtx-4090', 'NVIDIA GeForce RTX 4090', 'RTX 4090'],
    });
  });

  it('shows what the search matches as --virtual reads names, and keeps a chosen GPU shown', async () => {
    const client = inProcessClient();
    const { datasheetGpus: gpus } = await client.call('app:info', {});
    const ps = new PlansState(client, new JobHub(client));
    const shown = (): string[] => ps.shownGpus(gpus).map((g) => g.name);
    expect(ps.gpuSearch).toBe('');
    expect(shown()).toHaveLength(gpus.length);
    ps.gpuSearch = 'h100';
    expect(shown()).toEqual(['NVIDIA H100 SXM5 80GB', 'NVIDIA H100 PCIe 80GB']);
    // Case, spaces, punctuation and vendor words ignored; a part of a name, an alias or an id is enough.
    ps.gpuSearch = 'GeForce rtx-4090';
    expect(shown()).toEqual(['NVIDIA GeForce RTX 4090']);
    ps.gpuSearch = 'a6000';
    expect(shown()).toEqual(['NVIDIA RTX A6000']);
    ps.gpuSearch = 'H100SXM';
    expect(shown()).toEqual(['NVIDIA H100 SXM5 80GB']);
    ps.setVirtualCount('NVIDIA GeForce RTX 3090', 2);
    ps.gpuSearch = 'l40';
    expect(shown()).toEqual(['NVIDIA L40S', 'NVIDIA L40', 'NVIDIA GeForce RTX 3090']);
    ps.gpuSearch = 'voodoo';
    expect(shown()).toEqual(['NVIDIA GeForce RTX 3090']);
    ps.setVirtualCount('NVIDIA GeForce RTX 3090', 0);
    expect(shown()).toEqual([]);
  });
});
