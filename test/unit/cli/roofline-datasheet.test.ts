/** `pipedejavu roofline --datasheet`: measured GPUs against their datasheet estimates, in a real store. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { importProfile } from '../../../src-main/services/exchange/profile-import.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile } from '../../helpers/gpu-profile.js';
import { seedStore } from '../../helpers/seeded-store.js';

describe('pipedejavu roofline --datasheet', () => {
  it('prints each measured GPU against its datasheet estimate, per op family', async () => {
    const dir = tempDir();
    const db = path.join(dir, 's.db');
    const store = openDatabase(db);
    seedStore(store);
    importProfile(store, encodeProfile(gpuServerProfile()), 'gpu-box.json');
    store.close();
    // The datasheet predictor needs no training, and training changes nothing it says.
    const before = await cli(['roofline', '--db', db, '--datasheet']);
    expect(before.code).toBe(0);
    await cli(['train', '--db', db, '--predictor', 'linear']);
    const r = await cli(['roofline', '--db', db, '--datasheet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(before.stdout);
    const [header, , ...rows] = r.stdout.trim().split('\n');
    expect(header?.split(/\s{2,}/)).toEqual([
      'DATASHEET',
      'MEASURED',
      'EP',
      'KERNELS',
      'ERROR',
      'ELEMENTWISE',
      'GEMM',
      'SOFTMAX',
    ]);
    expect(rows.map((l) => l.split(/\s{2,}/).slice(0, 3))).toEqual([
      ['NVIDIA GeForce RTX 4080 SUPER', 'gpu-box/cuda:0', 'cuda'],
      ['NVIDIA GeForce RTX 2080 SUPER', 'gpu-box/cuda:1', 'cuda'],
    ]);
    const json = JSON.parse((await cli(['roofline', '--db', db, '--datasheet', '--json'])).stdout) as {
      datasheetChecks: { kernels: number }[];
    };
    expect(json.datasheetChecks).toHaveLength(2);
  });
});
