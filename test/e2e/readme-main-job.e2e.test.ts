/**
 * The README's main job as a new user runs it (`profile --device all`: the quick suite at 1
 * thread and at all cores, then `train` and `export`), and then every view of the app served on
 * that store, with no console error: the Workloads view predicts an added ONNX model on both
 * thread counts of the CPU (one row each), and the Plans view plans two of one datasheet GPU.
 * Needs Chromium (see harness.ts); skips without it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceIdOf } from '../../src-main/core/domain/device-id.js';
import { HAS_CHROMIUM, openApp, ROOT, SKIP_REASON, type App } from './harness.js';

const ONNX = path.join(ROOT, 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const GPU = 'NVIDIA H100 PCIe 80GB';

if (SKIP_REASON) console.warn(`README main job e2e skipped: ${SKIP_REASON}`);

/** `pipedejavu <args> --db <dir>/db.sqlite`, as the README runs it; its stdout, or why it failed. */
function pipedejavu(dir: string, args: string[]): string {
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin/pipedejavu.js'), ...args, '--db', path.join(dir, 'db.sqlite')],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    },
  );
  if (r.status !== 0) throw new Error(`pipedejavu ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r.stdout;
}

/** The profiled devices of the exported file, as the API names them ("cpu@1t", "cpu@2t"). */
function exportedDeviceIds(file: string): string[] {
  const exported = JSON.parse(readFileSync(file, 'utf8')) as {
    profileRuns: { deviceKey: string; executionProvider: string; threads: number | null; status: string }[];
  };
  return [...new Set(exported.profileRuns.filter((r) => r.status === 'complete').map((r) => deviceIdOf(r)))];
}

describe.skipIf(!HAS_CHROMIUM && process.env.CI !== 'true')(
  `the README's main job, then every view${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let app: App | undefined;

    afterEach(async () => {
      await app?.stop();
      app = undefined;
    });

    it(
      'profiles both thread counts, trains, exports, and every view shows them without an error',
      { timeout: 1_800_000 },
      async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-readme-'));
        pipedejavu(dir, ['profile', '--device', 'all']);
        pipedejavu(dir, ['train']);
        const file = path.join(dir, 'my-machine.json');
        pipedejavu(dir, ['export', '--out', file]);
        expect(existsSync(file)).toBe(true);
        const ids = exportedDeviceIds(file);
        expect(ids).toContain('cpu@1t');
        expect(ids.length).toBeGreaterThanOrEqual(Math.min(2, os.availableParallelism()));

        app = await openApp({ dir });
        const { page } = app;
        /** Waits for an element; on a timeout, says which console errors came before. */
        const shown = async (what: string, locator: ReturnType<typeof page.locator>): Promise<void> => {
          await locator.waitFor({ timeout: 180_000 }).catch((e: unknown) => {
            throw new Error(
              `${what} never showed (${String(e)}); console errors: ${app?.errors.join(' | ') || 'none'}`,
            );
          });
        };

        await shown('the device list', page.getByTestId('device-list'));

        await app.go('profile');
        for (const id of ids) await shown(`the roofline of ${id}`, page.locator(`[data-device-id="${id}"]`));

        await app.go('predictor');
        await shown('the trained predictors', page.getByTestId('predictors-table'));

        // Workloads: the added model is predicted on every profiled device, one row per thread count.
        await app.go('workloads');
        await page.getByTestId('workload-file-input').setInputFiles(ONNX);
        await page.getByTestId('workload-shapes').fill('x=1x3x48x192');
        await page.getByTestId('workload-add-button').click();
        const totals = page.getByTestId('prediction-totals');
        for (const id of ids) await shown(`the prediction on ${id}`, totals.locator(`tr[data-device-id="${id}"]`));
        await expect(totals.locator('tbody tr').count()).resolves.toBe(ids.length);
        await shown('the layer chart', page.getByTestId('layer-chart'));
        await app.screenshot('readme-job-workloads-light');

        // Plans: two of one datasheet GPU, from the picker's count.
        await app.go('plans');
        await page.getByTestId('plan-workload').selectOption('paddleocr-cls-mobile-v2');
        await page.getByTestId('plan-virtual').getByLabel(GPU).fill('2');
        await page.getByTestId('plan-run').click();
        await shown('the plans', page.getByTestId('plans-table'));
        await expect(page.getByTestId('plan-problem-devices').locator('li', { hasText: GPU }).count()).resolves.toBe(2);
        await app.screenshot('readme-job-plans-light');

        await app.go('library');
        await shown('the machines', page.getByTestId('machines-table'));

        await expect(page.getByTestId('error-message').count()).resolves.toBe(0);
        expect(app.errors).toEqual([]);
      },
    );
  },
);
