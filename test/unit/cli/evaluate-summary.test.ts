/** `evaluate` prints a screenful by default (issue #44: it printed 203 lines); --verbose the rest; --json as before. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { SEEDED_MACHINE, seededDb } from '../../helpers/seeded-store.js';

describe('pipedejavu evaluate', () => {
  const db = path.join(tempDir(), 'seeded.db');
  seededDb(db).close();

  it('summarizes: per predictor MAPE and within ±10/±25%, the best per device by its label, the held-out note', async () => {
    const r = await cli(['evaluate', '--db', db, '--no-sklearn', '--folds', '2']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(r.stdout).toMatch(/PREDICTOR\s+MAPE\s+WITHIN ±10%\s+WITHIN ±25%/);
    for (const p of ['forest', 'analytical', 'linear', 'roofline'])
      expect(r.stdout).toMatch(new RegExp(`^${p}\\s`, 'm'));
    expect(r.stdout).toContain('Best predictor per device');
    // Devices by machine label and thread count, never by the machine's hash.
    expect(r.stdout).not.toContain(SEEDED_MACHINE);
    expect(r.stdout).toMatch(/CPU, 1 thread\b/);
    expect(r.stdout).toMatch(/CPU, 16 threads/);
    expect(r.stdout).toMatch(/Held out:/);
    expect(r.stdout).toContain('--verbose');
    expect(r.stdout).not.toContain('== grouped-kfold');
  });

  it('--verbose adds every protocol, per family and per size', async () => {
    const r = await cli(['evaluate', '--db', db, '--no-sklearn', '--folds', '2', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Best predictor per device');
    expect(r.stdout).toContain('== grouped-kfold');
    expect(r.stdout).toContain('== leave-one-device-out');
    expect(r.stdout.split('\n').length).toBeGreaterThan(60);
  });

  it('--json is the report as before, with no summary in it', async () => {
    const r = await cli(['evaluate', '--db', db, '--no-sklearn', '--folds', '2', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(j).sort()).toEqual(
      ['devices', 'notes', 'options', 'protocols', 'samples', 'scatter', 'sklearnFitSeconds'].sort(),
    );
  });
});
