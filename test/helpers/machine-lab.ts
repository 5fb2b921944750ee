/**
 * An app core over a fresh store holding the seeded local machine and two imported GPU
 * servers (gpu-a, gpu-b), each with its own machine id (cloned node images share one; the
 * hostname alone is not the identity). For the machine comparison's handler and store tests.
 */
import path from 'node:path';
import { createAppCore, type AppCore } from '../../src-main/app/app-core.js';
import { encodeProfile } from '../../src-main/core/profile-file/codec.js';
import { tempDir } from './cli.js';
import { gpuServerProfile } from './gpu-profile.js';
import { seedStore, SEEDED_MACHINE } from './seeded-store.js';

/** The core and the three machines' ids, local first. The caller closes the core. */
export async function machineLab(prefix: string): Promise<{ core: AppCore; ids: string[] }> {
  const core = createAppCore({
    dbPath: path.join(tempDir(prefix), 'db.sqlite'),
    transport: 'http',
    inProcessJobs: true,
  });
  seedStore(core.deps.db);
  const ids = [SEEDED_MACHINE];
  for (const [i, hostname] of ['gpu-a', 'gpu-b'].entries()) {
    const profile = gpuServerProfile({ hostname });
    profile.machine.id = `gpulab00000000${i}`;
    const r = await core.dispatch('machine:import', { fileName: `${hostname}.json`, text: encodeProfile(profile) });
    if (!r.ok) {
      core.close();
      throw new Error(r.error.message);
    }
    ids.push((r.value as { machineId: string }).machineId);
  }
  return { core, ids };
}
