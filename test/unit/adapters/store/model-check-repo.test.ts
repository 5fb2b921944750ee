/** Model checks keep the machine's state: a check measured off the profiled speed is kept but is no residual of the band. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { MIGRATIONS } from '../../../../src-main/adapters/store/migrations.js';
import { ModelCheckRepo, type ModelCheck } from '../../../../src-main/adapters/store/model-check-repo.js';
import { tempDir } from '../../../helpers/store-fixtures.js';
import { seedStore, SEEDED_MACHINE } from '../../../helpers/seeded-store.js';

const check = (model: string, measuredUs: number): ModelCheck => ({
  machineId: SEEDED_MACHINE,
  deviceKey: 'cpu',
  threads: 2,
  model,
  label: model,
  predictor: 'forest',
  measuredUs,
  predictedUs: 100,
});

describe('ModelCheckRepo', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it('leaves the checks measured off the profiled speed out of the residuals, and keeps them with their state', () => {
    const db = openDatabase(':memory:');
    seedStore(db);
    const repo = new ModelCheckRepo(db);
    repo.add({ ...check('a', 110), machineRatio: 1.02, offSpeed: false });
    repo.add({ ...check('b', 240), machineRatio: 1.9, offSpeed: true });
    repo.add(check('c', 90));
    expect(repo.residuals(SEEDED_MACHINE, 'cpu').map((r) => r.model)).toEqual(['c', 'a']);
    const kept = db.prepare('SELECT model, machine_ratio, off_speed FROM model_checks ORDER BY id').all() as {
      model: string;
      machine_ratio: number | null;
      off_speed: number;
    }[];
    expect(kept).toEqual([
      { model: 'a', machine_ratio: 1.02, off_speed: 0 },
      { model: 'b', machine_ratio: 1.9, off_speed: 1 },
      { model: 'c', machine_ratio: null, off_speed: 0 },
    ]);
  });

  it('a store of schema 7 migrates and keeps its checks in use (their state was not read)', () => {
    const path = join(tmp.dir, 'v7.db');
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 7) });
    seedStore(old);
    old
      .prepare(
        `INSERT INTO model_checks (machine_id, device_key, threads, model, label, predictor, measured_us, predicted_us, checked_at)
         VALUES (?, 'cpu', 2, 'old', 'old', 'forest', 150, 100, '2026-11-30T12:00:00.000Z')`,
      )
      .run(SEEDED_MACHINE);
    old.close();
    const db = openDatabase(path);
    try {
      const rs = new ModelCheckRepo(db).residuals(SEEDED_MACHINE, 'cpu');
      expect(rs).toHaveLength(1);
      expect(rs[0]?.logRatio).toBeCloseTo(Math.log(1.5), 12);
      expect(db.prepare('SELECT machine_ratio, off_speed FROM model_checks').get()).toEqual({
        machine_ratio: null,
        off_speed: 0,
      });
    } finally {
      db.close();
    }
  });
});
