/** `pipedejavu compare`: machines side by side, as a table, as JSON and as an HTML report chromium opens. */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile, GPU_BOX } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

interface CompareJson {
  machines: {
    label: string;
    devices: {
      deviceKey: string;
      summary: { peakGflops: { fp32?: number } };
      familyEfficiency: Record<string, number>;
      predictedUs?: number;
    }[];
  }[];
  workload: { name: string; batch: number } | null;
}

async function labStore(): Promise<{ db: string; dir: string }> {
  const dir = tempDir();
  const db = path.join(dir, 'lab.db');
  seededDb(db).close();
  for (const [name, profile] of [
    ['gpu-box.json', gpuServerProfile()],
    ['evil.json', gpuServerProfile({ hostname: '<script>alert(1)</script>' })],
  ] as const) {
    const file = path.join(dir, name);
    writeFileSync(file, encodeProfile(profile));
    expect((await cli(['import', file, '--db', db])).code).toBe(0);
  }
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return { db, dir };
}

describe('pipedejavu compare', () => {
  it('puts three machines side by side with a workload predicted on every device', async () => {
    const { db, dir } = await labStore();
    const evil = '<script>alert(1)</script>';
    const html = path.join(dir, 'report.html');
    const args = ['compare', 'lab-ws-01', GPU_BOX, evil, '--workload', 'bert-base', '--seq', '128', '--db', db];
    const r = await cli([...args, '--json', '--html', html]);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as CompareJson;
    expect(c.machines.map((m) => m.label)).toEqual(['lab-ws-01', GPU_BOX, evil]);
    const gpu = c.machines[1]?.devices.find((d) => d.deviceKey === 'cuda:0');
    const cpu = c.machines[0]?.devices[0];
    expect(gpu?.summary.peakGflops.fp32).toBeGreaterThan(cpu?.summary.peakGflops.fp32 ?? Infinity);
    expect(gpu?.predictedUs).toBeLessThan(cpu?.predictedUs ?? 0);
    for (const e of Object.values(gpu?.familyEfficiency ?? {})) {
      expect(e).toBeGreaterThan(0);
      expect(e).toBeLessThanOrEqual(1);
    }
    expect(c.workload).toMatchObject({ name: 'bert-base', batch: 1 });

    const text = await cli(args);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^MACHINE\s+DEVICE\s+EP\s+THREADS\s+FP32 GFLOP\/s/);
    expect(text.stdout).toMatch(/BERT-BASE/);

    // The report: self-contained, its untrusted labels escaped, and it opens in a browser.
    const page = readFileSync(html, 'utf8');
    expect(page).not.toContain(evil);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toMatch(/<script|src="http|href="http/);
    expect((page.match(/<svg /g) ?? []).length).toBe(3);
    if (existsSync('/usr/bin/chromium')) {
      const dom = execFileSync(
        '/usr/bin/chromium',
        ['--headless', '--no-sandbox', '--disable-gpu', '--dump-dom', `file://${html}`],
        { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
      );
      expect(dom).toContain('<figcaption>Peak fp32 GFLOP/s</figcaption>');
      expect(dom).toContain('bert-base: predicted time');
    }
  }, 120_000);

  it('says in one line what is wrong: one machine, an unknown one, --batch without a workload', async () => {
    const { db } = await labStore();
    const one = await cli(['compare', GPU_BOX, '--db', db]);
    expect(one.code).toBe(2);
    const unknown = await cli(['compare', GPU_BOX, 'nowhere', '--db', db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('pipedejavu: error: no machine "nowhere" in the store\n');
    const batch = await cli(['compare', GPU_BOX, 'lab-ws-01', '--batch', '4', '--db', db]);
    expect(batch.code).toBe(2);
    expect(batch.stderr.trim().split('\n')).toHaveLength(1);
  });
});
