/**
 * The Library's import (LibraryState) against the real app core in this process: an older copy of
 * a stored machine is refused, and the app offers to replace it (the CLI's --replace).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src-main/api/client.js';
import { createAppCore, type AppCore } from '../../../../src-main/app/app-core.js';
import { encodeProfile } from '../../../../src-main/core/profile-file/codec.js';
import { LibraryState } from '../../../../src-renderer/src/state/library.svelte.js';
import { tempDir } from '../../../helpers/cli.js';
import { sampleProfileFile } from '../../../helpers/sample-profile.js';
import { seedStore } from '../../../helpers/seeded-store.js';

let core: AppCore | null = null;
afterEach(() => {
  core?.close();
  core = null;
});

function profileExportedAt(exportedAt: string, measurements: number): string {
  const p = sampleProfileFile();
  p.machine = { ...p.machine, id: 'labb000000000001', label: 'lab-b' };
  p.provenance = { ...p.provenance, exportedAt };
  p.measurements = p.measurements.slice(0, measurements);
  return encodeProfile(p);
}

describe('LibraryState import', () => {
  it('offers to replace a stored machine with an older copy, and replaces it only when asked', async () => {
    const c = createAppCore({
      dbPath: path.join(tempDir('pdjv-ui-'), 'db.sqlite'),
      transport: 'http',
      inProcessJobs: true,
    });
    core = c;
    seedStore(c.deps.db);
    const newer = await c.dispatch('machine:import', {
      fileName: 'newer.json',
      text: profileExportedAt('2026-11-20T00:00:00.000Z', 2),
    });
    expect(newer.ok).toBe(true);
    const older = profileExportedAt('2026-11-01T00:00:00.000Z', 1);
    const client = createApiClient({
      kind: 'http',
      // The desktop's open dialog, picking the older file.
      invoke: (channel, payload) =>
        channel === 'dialog:open'
          ? Promise.resolve({ ok: true, value: { fileName: 'older.json', text: older } })
          : c.dispatch(channel, payload),
      subscribe: (listener) => c.jobs.subscribe(listener),
    });
    const lib = new LibraryState(
      client,
      () => {},
      () => {},
    );
    const measurements = async (): Promise<number | undefined> =>
      (await client.call('machine:list', {})).find((m) => m.id === 'labb000000000001')?.measurementCount;

    await lib.importFile(null);
    expect(lib.importing.error).toMatch(/older\.json: machine "lab-b" .* is older; pass --replace/);
    expect(lib.canReplace).toBe(true);
    expect(await measurements()).toBe(2);

    await lib.replaceWithLast();
    expect(lib.importing.error).toBeNull();
    expect(lib.canReplace).toBe(false);
    expect(lib.lastImport?.action).toBe('updated');
    expect(await measurements()).toBe(1);
  });
});
