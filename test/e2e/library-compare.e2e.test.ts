/**
 * The Library compares more than two machines: three imported lab servers picked in the
 * browser against a real `pipedejavu serve`, side by side in one table (a column group per
 * machine) with their rooflines and bars. Needs Chromium (see harness.ts); skips without it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeProfile } from '../../src-main/core/profile-file/codec.js';
import { gpuServerProfile } from '../helpers/gpu-profile.js';
import { HAS_CHROMIUM, openApp, SKIP_REASON, type App } from './harness.js';

const HOSTS = ['lab-a', 'lab-b', 'lab-c'];

if (SKIP_REASON) console.warn(`library compare e2e skipped: ${SKIP_REASON}`);

describe.skipIf(!HAS_CHROMIUM && process.env.CI !== 'true')(
  `the Library's comparison in a browser${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let app: App | undefined;

    afterEach(async () => {
      await app?.stop();
      app = undefined;
    });

    it('imports three machines and shows all three side by side', { timeout: 120_000 }, async () => {
      app = await openApp();
      const { page } = app;
      await app.go('library');
      const rows = page.getByTestId('machines-table').locator('tbody tr');
      for (const [i, hostname] of HOSTS.entries()) {
        // Each its own machine (id): three nodes of a lab, two GPUs each.
        const profile = gpuServerProfile({ hostname });
        profile.machine.id = `e2elab00000000${i}`;
        const file = path.join(app.served.dir, `${hostname}.json`);
        writeFileSync(file, encodeProfile(profile));
        await page.getByTestId('import-file-input').setInputFiles(file);
        await expect
          .poll(() => page.getByTestId('import-result').innerText(), { timeout: 30_000 })
          .toMatch(new RegExp(`^Imported ${hostname}: 3 devices, 2 runs`));
        await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(i + 1);
      }

      // An older copy of lab-a is refused with both dates; the app offers to replace, and replaces when asked.
      const older = gpuServerProfile({ hostname: 'lab-a' });
      older.machine.id = 'e2elab000000000';
      older.provenance = { ...older.provenance, exportedAt: '2020-01-01T00:00:00.000Z' };
      older.measurements = older.measurements.slice(0, 1);
      const olderFile = path.join(app.served.dir, 'lab-a-older.json');
      writeFileSync(olderFile, encodeProfile(older));
      await page.getByTestId('import-file-input').setInputFiles(olderFile);
      await page.getByTestId('import-replace').waitFor({ timeout: 30_000 });
      await expect(page.getByTestId('error-message').first().innerText()).resolves.toMatch(
        /lab-a-older\.json: machine "lab-a" .* is older; pass --replace/,
      );
      await page.getByTestId('import-replace').click();
      await expect
        .poll(() => page.getByTestId('import-result').innerText(), { timeout: 30_000 })
        .toMatch(/^Updated lab-a: 3 devices/);
      await expect(page.getByTestId('import-replace').count()).resolves.toBe(0);
      await expect(rows.count()).resolves.toBe(3);

      // Pick all three (checking one already picked leaves it picked).
      const picks = page.getByTestId('compare-picks');
      for (const h of HOSTS) await picks.getByLabel(`Compare ${h}`).check();
      const machines = page.getByTestId('compare-table').getByTestId('compare-machine');
      await expect.poll(() => machines.count(), { timeout: 20_000 }).toBe(3);
      await expect(machines.allInnerTexts()).resolves.toEqual(HOSTS);
      // A column per GPU under each machine, and the figures the CLI's compare prints.
      const table = page.getByTestId('compare-table');
      await expect(table.locator('thead tr').nth(1).locator('th').count()).resolves.toBe(6);
      for (const row of ['fp32', 'bandwidth', 'ridge', 'dispatch']) {
        await expect(table.locator(`tbody tr[data-row=${row}] td`).count()).resolves.toBe(7);
      }
      await expect(table.locator('tbody tr[data-row^="family:"]').count()).resolves.toBeGreaterThan(0);
      await expect(table.innerText()).resolves.toMatch(/Peak FP32[\s\S]*TFLOP\/s/);
      await page.getByTestId('compare-card').getByTestId('roofline-chart').waitFor();
      await page.getByTestId('compare-peak-chart').waitFor();
      await page.getByTestId('compare-bandwidth-chart').waitFor();
      await expect(page.getByTestId('compare-peak-chart').locator('rect').count()).resolves.toBe(6);
      await page.getByTestId('compare-card').scrollIntoViewIfNeeded();
      await app.screenshot('library-compare-three-light');
      await app.screenshotOf('compare-table', 'library-compare-three-table-light');
      await page.getByTestId('compare-bandwidth-chart').scrollIntoViewIfNeeded();
      await app.screenshot('library-compare-three-charts-light');

      // A workload without a trained predictor: its one-line error, and the comparison stays.
      await page.getByTestId('compare-workload').selectOption('bert-base');
      const error = page.getByTestId('compare-card').getByTestId('error-message');
      await expect.poll(() => error.innerText(), { timeout: 20_000 }).toMatch(/train/);
      await expect(machines.count()).resolves.toBe(3);
      await page.getByTestId('compare-workload').selectOption('');
      await expect.poll(() => error.count(), { timeout: 10_000 }).toBe(0);

      // Unpicking one leaves two side by side.
      await picks.getByLabel('Compare lab-b').uncheck();
      await expect.poll(() => machines.allInnerTexts(), { timeout: 20_000 }).toEqual(['lab-a', 'lab-c']);
      await expect(page.getByTestId('error-message').count()).resolves.toBe(0);
      expect(app.errors).toEqual([]);
    });
  },
);
