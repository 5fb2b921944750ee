/** `pipedejavu profile runs` lists the stored runs with their conditions; predict warns about a poor one. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileRepo } from '../../../src-main/adapters/store/profile-repo.js';
import { runConditions } from '../../../src-main/core/profiler/run-conditions.js';
import { trainPredictors } from '../../../src-main/services/predict/predictor-service.js';
import { cli, tempDir, words } from '../../helpers/cli.js';
import { createSeededRun, seededDb } from '../../helpers/seeded-store.js';

function storeWithConditions(): string {
  const file = path.join(tempDir(), 'runs.db');
  const db = seededDb(file);
  trainPredictors(db, ['linear']);
  const later = (minutes: number) => new ProfileRepo(db, () => new Date(Date.now() + minutes * 60_000));
  const quiet = createSeededRun(later(1), { threads: 1 });
  later(1).setRunConditions(quiet.id, runConditions({ othersBefore: 0.1, othersAfter: 0, stealShare: 0, waitedMs: 0 }));
  later(1).finishRun(quiet.id, 'complete', null);
  const busy = createSeededRun(later(2), { threads: 16 });
  later(2).setRunConditions(
    busy.id,
    runConditions({ othersBefore: 1.4, othersAfter: 1.2, stealShare: 0.01, waitedMs: 20_000 }),
  );
  later(2).finishRun(busy.id, 'complete', null);
  db.close();
  return file;
}

describe('pipedejavu profile runs', () => {
  it('lists each run with the conditions it was taken in: quiet, poor and why, or not read', async () => {
    const db = storeWithConditions();
    const r = await cli(['profile', 'runs', '--db', db]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/STARTED\s+DEVICE\s+EP\s+THREADS\s+SUITE\s+STATUS\s+MEASUREMENTS\s+CONDITIONS/);
    expect(lines.filter((l) => / not read$/.test(l))).toHaveLength(2); // the seeded runs, stored before v5
    expect(lines.filter((l) => / quiet$/.test(l))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      / 16 .* poor: other work kept 1\.4 CPUs busy around it \(waited 20 s for a quiet moment\)$/,
    );
    const json = await cli(['profile', 'runs', '--db', db, '--json']);
    const runs = (JSON.parse(json.stdout) as { runs: { conditions: { poor: string | null } | null }[] }).runs;
    expect(runs.map((x) => x.conditions?.poor ?? null)).toEqual([
      null,
      null,
      null,
      'other work kept 1.4 CPUs busy around it',
    ]);
    expect((await cli(['profile', 'listing', '--db', db])).stderr).toMatch(/unknown subcommand "listing"; use runs/);
  });

  it('predict on the CPU profiled under load prints one warning naming it and what to do', async () => {
    const db = storeWithConditions();
    const at16 = await cli(words`predict --op Softmax --shape 256x512 --device cpu --threads 16 --db ${db}`);
    expect(at16.code).toBe(0);
    expect(at16.stdout.split('\n').filter((l) => l.includes('profiled while'))).toEqual([
      'warning: CPU, 16 threads: profiled while other work kept 1.4 CPUs busy around it, so its predictions may read slow; profile again when the machine is quiet (`pipedejavu profile --device cpu --threads 16`)',
    ]);
    const at1 = await cli(words`predict --op Softmax --shape 256x512 --device cpu --threads 1 --db ${db}`);
    expect(at1.stdout).not.toMatch(/profiled while/);
  });
});
