/**
 * Machine ids on a cluster: nodes booted from one image share /etc/machine-id, so the id also
 * holds the hostname; a store made before keeps its machine under the old id.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { devicesFromProbe, linksFromProbe } from '../../../../src-main/core/domain/devices.js';
import { exportProfile } from '../../../../src-main/services/exchange/profile-export.js';
import { importProfile } from '../../../../src-main/services/exchange/profile-import.js';
import {
  legacyMachineIdFor,
  machineIdFor,
  type ProbeDeps,
} from '../../../../src-main/services/machine/probe-service.js';
import { listMachines, probeAndRecord } from '../../../../src-main/services/machine/machine-service.js';
import type { SystemProbe } from '../../../../src-main/adapters/system/probe-system.js';
import { sampleProbe } from '../../../helpers/sample-probe.js';

const CLONED_IMAGE = '4c4c4544-0042-3510-8052-b4c04f564433';

function node(hostname: string, gpuUuids: string[]): ProbeDeps {
  const p = sampleProbe({ hostname });
  const system: SystemProbe = { hostname, os: p.os, cpu: p.cpu, memory: p.memory, osUuid: CLONED_IMAGE, warnings: [] };
  const nvidia = p.nvidia.status === 'ok' ? p.nvidia : null;
  if (!nvidia) throw new Error('the sample probe has GPUs');
  const gpus = nvidia.gpus.map((g, i) => ({ ...g, uuid: gpuUuids[i] ?? g.uuid }));
  return {
    probeSystem: () => Promise.resolve(system),
    probeNvidia: () => Promise.resolve({ nvidia: { ...nvidia, gpus }, warnings: [] }),
    now: () => new Date('2026-11-25T00:00:00Z'),
  };
}

describe('machine ids of cloned nodes', () => {
  it('differ by hostname although /etc/machine-id is the same, and stay when the GPUs answer differently', async () => {
    const a = await probeAndRecord(openDatabase(':memory:'), node('gpu-a', ['GPU-a0', 'GPU-a1']), {});
    const b = await probeAndRecord(openDatabase(':memory:'), node('gpu-b', ['GPU-a0', 'GPU-a1']), {});
    expect(a.machineId).not.toBe(b.machineId);
    expect(a.machineId).toMatch(/^[0-9a-f]{16}$/);
    // A swapped GPU (or an nvidia-smi that fails once) keeps the machine's history in one place.
    const swapped = await probeAndRecord(openDatabase(':memory:'), node('gpu-a', ['GPU-new', 'GPU-a1']), {});
    expect(swapped.machineId).toBe(a.machineId);
    expect(machineIdFor(await node('gpu-a', []).probeSystem())).toBe(a.machineId);
  });

  it('keeps two nodes of one image apart when both profiles are imported into one store', async () => {
    const files = await Promise.all(
      [node('gpu-a', ['GPU-a0', 'GPU-a1']), node('gpu-b', ['GPU-b0', 'GPU-b1'])].map(async (deps) => {
        const db = openDatabase(':memory:');
        await probeAndRecord(db, deps, {});
        return exportProfile(db, undefined, { now: deps.now, runtimes: { node: 'v20' } }).text;
      }),
    );
    const lab = openDatabase(':memory:');
    for (const [i, text] of files.entries()) importProfile(lab, text, `node-${i}.json`);
    expect(
      listMachines(lab)
        .map((m) => m.label)
        .sort(),
    ).toEqual(['gpu-a', 'gpu-b']);
  });

  it('keeps a machine a store recorded under the old id there, instead of starting a second one', async () => {
    const deps = node('gpu-a', ['GPU-a0', 'GPU-a1']);
    const system = await deps.probeSystem();
    const db = openDatabase(':memory:');
    const old = legacyMachineIdFor(system);
    const probe = sampleProbe({ hostname: 'gpu-a' });
    new MachineRepo(db).upsertLocalMachine(probe, old, devicesFromProbe(probe), linksFromProbe(probe));
    const r = await probeAndRecord(db, deps, {});
    expect(r.machineId).toBe(old);
    expect(listMachines(db).map((m) => m.id)).toEqual([old]);
  });
});

describe('a store another host recorded itself in', () => {
  it('gets this host probed and recorded beside it, and this host is the one found from then on', async () => {
    const { hostname } = await import('node:os');
    const { ensureLocalMachine, findMachine } =
      await import('../../../../src-main/services/machine/machine-service.js');
    const db = openDatabase(':memory:');
    const other = sampleProbe({ hostname: 'some-other-node' });
    new MachineRepo(db).upsertLocalMachine(other, 'aaaaaaaaaaaaaaaa', devicesFromProbe(other), linksFromProbe(other));
    const here = await ensureLocalMachine(db, node(hostname(), ['GPU-x0', 'GPU-x1']), {});
    expect(here.hostname).toBe(hostname());
    expect(here.id).not.toBe('aaaaaaaaaaaaaaaa');
    expect(listMachines(db).filter((m) => m.source === 'local')).toHaveLength(2);
    expect(findMachine(db)?.id).toBe(here.id);
    // Asked again, the stored record of this host is used as it is.
    expect((await ensureLocalMachine(db, node(hostname(), []), {})).id).toBe(here.id);
  });
});
