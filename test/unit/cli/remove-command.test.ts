import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile, GPU_BOX } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

const ONNX = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

describe('removing machines and workloads', () => {
  it('removes an imported machine with its measurements, never this one', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'r.db');
    seededDb(db).close();
    const file = path.join(dir, 'gpu.json');
    writeFileSync(file, encodeProfile(gpuServerProfile()));
    expect((await cli(['import', file, '--db', db])).code).toBe(0);
    const local = await cli(['machines', 'remove', 'lab-ws-01', '--db', db]);
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/is this machine; it is not removed/);
    const r = await cli(['machines', 'remove', GPU_BOX, '--db', db, '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse((await cli(['machines', '--db', db, '--json'])).stdout) as {
      machines: { label: string }[];
    };
    expect(list.machines.map((m) => m.label)).toEqual(['lab-ws-01']);
    // Importing it again works: nothing of it was left behind.
    expect((await cli(['import', file, '--db', db])).code).toBe(0);
    expect((await cli(['machines', 'remove', 'nope', '--db', db])).stderr).toMatch(/no machine "nope"/);
    expect((await cli(['machines', 'drop', 'x', '--db', db])).code).toBe(2);
  });

  it('removes a workload', async () => {
    const db = path.join(tempDir(), 'w.db');
    expect((await cli(['workload', 'add', ONNX, '--input', 'x=1x3x48x192', '--db', db])).code).toBe(0);
    const r = await cli(['workload', 'remove', 'paddleocr-cls-mobile-v2', '--db', db]);
    expect(r.code).toBe(0);
    expect((await cli(['workload', 'list', '--db', db])).stdout).toMatch(/No workloads yet/);
    const again = await cli(['workload', 'remove', 'paddleocr-cls-mobile-v2', '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
  });
});
