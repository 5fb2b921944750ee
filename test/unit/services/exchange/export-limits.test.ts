/** An export is a file import can read: a machine past the profile caps is refused in one line, not written. */
import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../../src-main/adapters/store/profile-repo.js';
import { UserError } from '../../../../src-main/core/errors.js';
import { LIMITS } from '../../../../src-main/core/profile-file/schema.js';
import { exportProfile } from '../../../../src-main/services/exchange/profile-export.js';
import { bigProfileFile } from '../../../helpers/big-profile.js';
import { createSeededRun, seededDb } from '../../../helpers/seeded-store.js';

describe('exportProfile', () => {
  it('refuses a machine with more measurements than a profile holds, naming both counts', () => {
    const db = seededDb();
    const repo = new ProfileRepo(db);
    const perRun = 15_000;
    const big = bigProfileFile(LIMITS.maxMeasurements + 1, 'unused0000000000', perRun);
    for (const [i, run] of big.profileRuns.entries()) {
      const stored = createSeededRun(repo, { threads: run.threads ?? 1 });
      const ms = big.measurements.slice(i * perRun, (i + 1) * perRun).map((m) => ({ ...m, runId: stored.id }));
      repo.insertMeasurements(stored.id, ms, { validated: true });
    }
    let thrown: unknown = null;
    try {
      exportProfile(db, undefined, { now: () => new Date('2026-11-27T00:00:00Z'), runtimes: {} });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as Error).message).toMatch(
      /^machine "lab-ws-01" has \d+ measurements, more than a hardware profile holds \(150000, LIMITS\.maxMeasurements\); import would refuse the file, so it was not written$/,
    );
  });
});
