/**
 * Predictors in an imported profile apply to the machine they were trained on: they
 * never take over this machine's predictions, a training date in the future is
 * refused, and a predictor that does not load is refused at import.
 */
import { describe, expect, it } from 'vitest';
import { MachineRepo } from '../../../../src-main/adapters/store/machine-repo.js';
import { ProfileFileError } from '../../../../src-main/core/profile-file/codec.js';
import { exportProfile } from '../../../../src-main/services/exchange/profile-export.js';
import { importProfile } from '../../../../src-main/services/exchange/profile-import.js';
import {
  predictOp,
  storedPredictors,
  trainPredictors,
} from '../../../../src-main/services/predict/predictor-service.js';
import { seededDb } from '../../../helpers/seeded-store.js';

const deps = { now: () => new Date(), runtimes: { node: 'v20' }, withPredictors: true };

/** A colleague's profile file: another machine with its own trained predictor, edited by `edit`. */
function colleagueFile(edit: (p: { trainedAt: string; model: unknown }) => void): string {
  const theirs = seededDb();
  trainPredictors(theirs, ['analytical']);
  const file = JSON.parse(exportProfile(theirs, undefined, deps).text) as {
    machine: { id: string; label: string };
    predictors: { trainedAt: string; model: unknown }[];
  };
  file.machine.id = 'colleague0000001';
  file.machine.label = 'colleague';
  for (const p of file.predictors) edit(p);
  return JSON.stringify(file);
}

function matmul(db: ReturnType<typeof seededDb>): number[] {
  return predictOp(db, { op: 'MatMul', shape: '1x256x256x256', dtype: 'fp32', device: 'cpu' }).predictions.map(
    (p) => p.timeUs,
  );
}

describe('predictors from an imported profile', () => {
  it('do not take over the predictions of this machine, whatever date they claim', () => {
    const mine = seededDb();
    trainPredictors(mine, ['analytical'], () => new Date('2026-01-01T00:00:00Z'));
    const before = matmul(mine);
    const trainedAt = new Date(Date.now() + 3600_000).toISOString();
    importProfile(
      mine,
      colleagueFile((p) => (p.trainedAt = trainedAt)),
      'colleague.json',
    );
    expect(new MachineRepo(mine).listMachines().map((m) => m.label)).toContain('colleague');
    expect(storedPredictors(mine).map((p) => p.trainedAt)).toEqual(['2026-01-01T00:00:00.000Z']);
    expect(matmul(mine)).toEqual(before);
    // `train` stores a newer predictor for this machine, and it is the one used.
    trainPredictors(mine, ['analytical'], () => new Date('2025-06-01T00:00:00Z'));
    expect(storedPredictors(mine).map((p) => p.trainedAt)).toEqual(['2025-06-01T00:00:00.000Z']);
  });

  it('a predictor trained "in the future" is refused at import, and nothing is stored', () => {
    const mine = seededDb();
    const text = colleagueFile((p) => (p.trainedAt = '9999-12-31T00:00:00.000Z'));
    expect(() => importProfile(mine, text, 'future.json')).toThrow(ProfileFileError);
    expect(() => importProfile(mine, text, 'future.json')).toThrow(
      /future\.json: its analytical predictor claims to be trained at 9999-12-31T00:00:00.000Z, in the future/,
    );
    expect(new MachineRepo(mine).listMachines()).toHaveLength(1);
  });

  it('a predictor that does not load is refused at import, not at the next prediction', () => {
    const mine = seededDb();
    const text = colleagueFile((p) => (p.model = { name: 'analytical', version: 1, garbage: true }));
    expect(() => importProfile(mine, text, 'broken.json')).toThrow(
      /broken\.json: its analytical predictor cannot be loaded \(.+\); the file was not imported/,
    );
    expect(new MachineRepo(mine).listMachines()).toHaveLength(1);
  });
});
