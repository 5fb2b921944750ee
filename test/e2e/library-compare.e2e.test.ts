/**
 * The Library compares more than two machines: three imported lab servers picked in the
 * browser against a real `pipedejavu serve`, side by side in one table (a column group per
 * machine) with their rooflines and bars. Needs Chromium (see harness.ts); skips without it.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeProfile } from '../../src-main/core/profile-file/codec.js';
import { gpuServerProfile } from '../helpers/gpu-profile.js';
import { HAS_CHROMIUM, openApp, ROOT, SCREENSHOTS, SKIP_REASON, VIEWPORT, type App } from './harness.js';

/**
 * How far a page, and a box of it that scrolls on its own, reach past their right edges (0 or less: not at
 * all), and what reaches past the box's edge, for the failure message. Run in the browser (a string: the
 * tests are compiled without the DOM's types).
 */
const OVERFLOW = `(selector) => {
  const root = document.documentElement;
  const box = document.querySelector(selector);
  const edge = box.getBoundingClientRect().right;
  const wide = [...box.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > edge + 0.5)
    .slice(0, 8)
    .map((e) => e.tagName.toLowerCase() + '.' + String(e.className) + ' (' + Math.round(e.getBoundingClientRect().right) + ' px)');
  return { page: root.scrollWidth - root.clientWidth, pane: box.scrollWidth - box.clientWidth, wide: wide.join(', ') };
}`;

async function sidewaysOverflow(page: Page, pane: string): Promise<{ page: number; pane: number; wide: string }> {
  return (await page.evaluate(`(${OVERFLOW})(${JSON.stringify(pane)})`)) as {
    page: number;
    pane: number;
    wide: string;
  };
}

/**
 * The third with a long name as cluster nodes have, with no hyphen or space to break a line at: the report
 * wraps or scrolls it inside its own boxes.
 */
const HOSTS = ['lab-a', 'lab-b', 'node0007.gpu.rack0012.datacentereast.researchcluster.corp.example.org'];

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
      // Issue 60: at a 1,400 px window the report's wide table and long names scroll or wrap inside their own
      // boxes; the page itself never scrolls sideways.
      await page.setViewportSize({ width: 1400, height: 900 });
      const overflow = await sidewaysOverflow(page, '#main');
      expect(overflow.page, `the page is wider than the window: ${overflow.wide}`).toBeLessThanOrEqual(0);
      expect(overflow.pane, `the view is wider than its pane: ${overflow.wide}`).toBeLessThanOrEqual(0);
      await page.setViewportSize(VIEWPORT);
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
      await expect.poll(() => machines.allInnerTexts(), { timeout: 20_000 }).toEqual([HOSTS[0], HOSTS[2]]);
      await expect(page.getByTestId('error-message').count()).resolves.toBe(0);
      expect(app.errors).toEqual([]);

      // The report `compare --html` writes, at the same width: its wide table scrolls in its own box.
      const file = path.join(app.served.dir, 'compare.html');
      const cli = spawnSync(
        process.execPath,
        [path.join(ROOT, 'bin/pipedejavu.js'), 'compare', ...HOSTS, '--html', file, '--db', app.served.dbPath],
        { encoding: 'utf8' },
      );
      expect(cli.status, cli.stderr).toBe(0);
      const report = await page.context().newPage();
      await report.setViewportSize({ width: 1400, height: 900 });
      await report.goto(pathToFileURL(file).href);
      const reportOverflow = await sidewaysOverflow(report, 'body');
      expect(reportOverflow.page, `the report is wider than the window: ${reportOverflow.wide}`).toBeLessThanOrEqual(0);
      await report.screenshot({ path: path.join(SCREENSHOTS, 'library-compare-report-1400.png'), fullPage: true });
      await report.close();
    });
  },
);
