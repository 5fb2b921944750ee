/** `pipedejavu predict`: each predictor's 90% band, and "-" for the roofline, which has none. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

describe('predict', () => {
  it("prints each predictor's 90% band around its time, and none for the roofline", async () => {
    const db = path.join(tempDir(), 'p.db');
    seededDb(db).close();
    expect((await cli(['train', '--db', db, '--predictor', 'all'])).code).toBe(0);
    const r = await cli(['predict', '--op', 'Softmax', '--shape', '256x512', '--device', 'cpu', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PREDICTOR +TIME +90% BAND$/m);
    expect(r.stdout).toMatch(/^roofline +\S+ \S+ +-$/m);
    const forest = /^forest +([\d.]+) (µs|ms) +([\d.]+) (µs|ms) - ([\d.]+) (µs|ms)$/m.exec(r.stdout);
    expect(forest).not.toBeNull();
    const us = (v: string | undefined, unit: string | undefined): number => Number(v) * (unit === 'ms' ? 1000 : 1);
    const [time, low, high] = [
      us(forest?.[1], forest?.[2]),
      us(forest?.[3], forest?.[4]),
      us(forest?.[5], forest?.[6]),
    ];
    expect(low).toBeLessThanOrEqual(time);
    expect(high).toBeGreaterThan(time);
  });
});
