/**
 * The app in a browser against a real `pipedejavu serve`: the whole flow (probe, quick
 * profile, train, add an ONNX model, plan, export) and two error paths (a bad import file,
 * a cancelled profile). Screenshots of every view, light and dark, go to
 * test-results/screenshots/. Needs Chromium (see harness.ts); skips without it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeProfile } from '../../src-main/core/profile-file/codec.js';
import { GPU_BOX, gpuServerProfile } from '../helpers/gpu-profile.js';
import { HAS_CHROMIUM, openApp, ROOT, SKIP_REASON, type App } from './harness.js';

const ONNX = path.join(ROOT, 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const VIEWS = ['workstation', 'profile', 'predictor', 'workloads', 'plans', 'library'] as const;

if (SKIP_REASON) console.warn(`app e2e skipped: ${SKIP_REASON}`);

/** The job progress of one kind, once it has reached one of `states`. */
function job(app: App, kind: string, states: string[]) {
  return app.page.locator(
    states.map((s) => `[data-testid=job-progress][data-job-kind=${kind}][data-state=${s}]`).join(', '),
  );
}

describe.skipIf(!HAS_CHROMIUM && process.env.CI !== 'true')(
  `the app in a browser${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let app: App | undefined;

    afterEach(async () => {
      await app?.stop();
      app = undefined;
    });

    it('probes, profiles, trains, adds an ONNX model, plans and exports', { timeout: 300_000 }, async () => {
      app = await openApp();
      const { page } = app;

      // Workstation: nothing recorded yet, then a probe.
      await page.getByTestId('empty-state').waitFor();
      await app.screenshot('workstation-empty-light');
      await page.getByTestId('probe-button').click();
      await page.getByTestId('device-list').waitFor();
      expect(await page.getByTestId('device-list').locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
      await expect(page.getByTestId('device-list').innerText()).resolves.toContain('cpu');

      // Profile: quick suite on the CPU with one thread, live kernels, then the roofline.
      await app.go('profile');
      await page.getByText('No profile yet: run a quick profile').waitFor();
      await page.getByTestId('profile-device').selectOption('cpu');
      await page.getByTestId('profile-suite').selectOption('quick');
      await page.getByTestId('profile-threads').fill('1');
      await page.getByTestId('profile-start').click();
      await job(app, 'profile', ['running']).waitFor();
      await page.getByTestId('live-kernels').locator('tbody tr').first().waitFor();
      await app.screenshot('profile-running-light');
      await job(app, 'profile', ['done', 'failed', 'cancelled']).waitFor({ timeout: 180_000 });
      await expect(page.getByTestId('job-progress').getAttribute('data-state')).resolves.toBe('done');
      await page.getByTestId('roofline-chart').first().waitFor();
      expect(await page.getByTestId('roofline-chart').first().locator('circle').count()).toBeGreaterThan(10);
      await expect(
        page.getByTestId('runs-table').locator('tbody tr').first().getAttribute('data-run-status'),
      ).resolves.toBe('complete');

      // Predictor: train, then a quick evaluation (no scikit-learn).
      await app.go('predictor');
      await page.getByTestId('train-button').click();
      await job(app, 'train', ['done', 'failed']).waitFor({ timeout: 120_000 });
      await expect(job(app, 'train', ['done']).count()).resolves.toBe(1);
      await page.getByTestId('predictors-table').waitFor();
      expect(await page.getByTestId('predictors-table').locator('tbody tr').count()).toBe(4);
      await page.getByTestId('evaluate-button').click();
      await job(app, 'evaluate', ['done', 'failed']).waitFor({ timeout: 120_000 });
      await page.getByTestId('eval-table').waitFor();
      // The held-out share inside each prediction's 90% band (the roofline has no band).
      const bands = await page.getByTestId('eval-band').allInnerTexts();
      expect(bands.some((t) => /^\d+(\.\d+)? %$/.test(t))).toBe(true);
      await page.getByTestId('scatter-chart').waitFor();

      // Workloads: the ONNX file through the file input, with its symbolic input shape.
      await app.go('workloads');
      await page.getByTestId('workload-file-input').setInputFiles(ONNX);
      await page.getByTestId('workload-shapes').fill('x=1x3x48x192');
      await page.getByTestId('workload-add-button').click();
      await page.getByTestId('workloads-table').getByText('paddleocr-cls-mobile-v2').waitFor();
      await page.getByTestId('layer-chart').waitFor();
      expect(await page.getByTestId('layer-chart').locator('rect').count()).toBeGreaterThan(5);
      // The graph ONNX Runtime executes, under the user's layers (fused and NCHWc nodes).
      const executed = page.getByTestId('executed-layers');
      await executed.locator('details').first().waitFor();
      await executed.locator('summary').first().click();
      await expect(executed.locator('li').first().innerText()).resolves.toMatch(/Conv|Reorder/);
      await executed.scrollIntoViewIfNeeded();
      await app.screenshot('workloads-executed-light');
      await page.getByTestId('prediction-totals').scrollIntoViewIfNeeded();
      // Each device's 90% band: the shipped bench residuals until this CPU has checks of its own.
      await expect(page.getByTestId('band-cell').first().getAttribute('title')).resolves.toMatch(
        /^from \d+ residuals \(shipped\)$/,
      );
      await app.screenshot('workloads-added-light');
      // Measure on this CPU: the real model, and whether it fell inside the band printed before.
      await page.getByTestId('measure-button').click();
      await job(app, 'measure', ['done', 'failed']).waitFor({ timeout: 120_000 });
      await expect(page.getByTestId('measured-band').innerText()).resolves.toMatch(
        /^(Inside|Outside) the prediction's 90% band, .+ – .+ \(from \d+ residuals, shipped\)$/,
      );

      // Plans: the model on the profiled CPU plus one datasheet GPU.
      await app.go('plans');
      await page.getByTestId('plan-workload').selectOption('paddleocr-cls-mobile-v2');
      await expect(page.getByTestId('plan-device-cpu').isChecked()).resolves.toBe(true);
      // The datasheet picker's search matches names as --virtual does: "h100" lists the SXM5 and the PCIe.
      await page.getByTestId('plan-gpu-search').fill('h100');
      await expect(page.getByTestId('plan-gpu-count').innerText()).resolves.toMatch(/^2 of \d+$/);
      await page.getByTestId('plan-virtual').getByLabel('NVIDIA H100 SXM5 80GB').fill('1');
      await page.getByTestId('plan-run').click();
      await job(app, 'plan', ['done', 'failed']).waitFor({ timeout: 120_000 });
      await expect(job(app, 'plan', ['done']).count()).resolves.toBe(1);
      await page.getByTestId('plans-table').waitFor();
      expect(await page.getByTestId('plans-table').locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
      // Each plan's step has its band (the widest of its devices').
      await expect(page.getByTestId('step-band').first().innerText()).resolves.toMatch(/ – /);
      // Each stage's compute and its band, in the stages cell's tooltip.
      await expect(page.getByTestId('plan-stages').first().getAttribute('title')).resolves.toMatch(
        /^\[0–\d+\): .+ \(.+ – .+\)/,
      );
      await page.getByTestId('gantt-chart').waitFor();
      await page.getByTestId('memory-chart').waitFor();
      await page.getByTestId('export-snippets').waitFor();
      await app.screenshot('plans-result-light');
      await app.screenshotOf('gantt-chart', 'plans-gantt-light');
      await app.screenshotOf('memory-chart', 'plans-memory-light');

      // A model that is no served decoder exports the training launchers: torchrun first, no serving engine.
      await expect(page.getByTestId('export-snippets').getByRole('tab').allInnerTexts()).resolves.toEqual([
        'torchrun',
        'DeepSpeed',
        'Megatron-LM',
      ]);
      // Export: the DeepSpeed config, copied to the clipboard.
      await page.getByTestId('export-tab-deepspeed').click();
      const config = page.getByTestId('export-snippets').getByTestId('snippet').nth(1);
      await expect(config.innerText()).resolves.toContain('train_micro_batch_size_per_gpu');
      await page.getByTestId('copy-deepspeed-ds_config.json').click();
      await page.getByTestId('copy-deepspeed-ds_config.json').getByText('Copied').waitFor();
      // A string: the root tsconfig has no DOM types for a function body.
      const clip = String(await page.evaluate('navigator.clipboard.readText()'));
      expect(JSON.parse(clip)).toHaveProperty('train_micro_batch_size_per_gpu');

      // Serving a decoder: Llama 3.1 8B in inference mode gets its serving figures and its KV cache.
      await app.go('plans');
      await page.getByTestId('plan-workload').selectOption('llama-3.1-8b');
      await page.getByTestId('plan-mode').selectOption('inference');
      await page.getByTestId('plan-run').click();
      await page.getByTestId('serving-table').waitFor({ timeout: 120_000 });
      const servingRows = page.getByTestId('serving-table').locator('tbody tr');
      expect(await servingRows.count()).toBeGreaterThanOrEqual(1);
      await expect(servingRows.first().innerText()).resolves.toMatch(/tokens|–/);
      await page.getByTestId('plan-warnings').locator('summary').click();
      await expect(page.getByTestId('plan-warnings').innerText()).resolves.toContain(
        'llama-3.1-8b: inference memory holds the KV cache',
      );
      // Each memory bar marks the KV cache's share.
      expect(await page.getByTestId('memory-chart').getByTestId('memory-kv').count()).toBeGreaterThanOrEqual(1);
      // A serving plan exports its engine's launch line only, on a tab of its own that is open.
      const snippets = page.getByTestId('export-snippets');
      await expect(snippets.getByRole('tab').allInnerTexts()).resolves.toEqual(['vLLM']);
      await expect(page.getByTestId('export-tab-serve').getAttribute('aria-selected')).resolves.toBe('true');
      await expect(snippets.getByTestId('snippet').first().innerText()).resolves.toMatch(
        /vllm serve meta-llama\/Llama-3\.1-8B\S* --dtype bfloat16 .*--max-model-len \d+/,
      );
      await expect(snippets.innerText()).resolves.not.toMatch(/torchrun|deepspeed|megatron/i);
      await app.screenshot('plans-serving-light');
      await app.screenshotOf('memory-chart', 'plans-serving-memory-light');
      await expect(page.getByTestId('serving-engine').innerText()).resolves.toMatch(/^vLLM, rules of /);
      const vllmDecode = await servingRows.first().locator('td').nth(2).innerText();

      // Another engine changes the figures and the launch line: llama.cpp, with its own band.
      await page.getByTestId('plan-engine').selectOption('llama.cpp');
      await page.getByTestId('plan-run').click();
      await page.getByTestId('serving-engine').getByText('llama.cpp, rules of').waitFor({ timeout: 120_000 });
      await expect(snippets.getByRole('tab').allInnerTexts()).resolves.toEqual(['llama.cpp']);
      await expect(snippets.getByTestId('snippet').first().innerText()).resolves.toMatch(/llama-server -m /);
      await expect(servingRows.first().locator('td').nth(2).innerText()).resolves.not.toBe(vllmDecode);
      await page.getByTestId('plan-engine').selectOption('auto');

      // Llama 3.1 70B on two datasheet H100s alone: it fits only split, and a tensor-parallel pair is among the plans.
      await page.getByTestId('plan-device-cpu').uncheck();
      await page.getByTestId('plan-virtual').getByLabel('NVIDIA H100 PCIe 80GB').fill('1');
      await page.getByTestId('plan-workload').selectOption('llama-3.1-70b');
      await page.getByTestId('plan-batch').fill('1');
      await page.getByTestId('plan-run').click();
      await page.getByTestId('plans-table').getByText('tensor parallel').first().waitFor({ timeout: 120_000 });
      await expect(page.getByTestId('plans-table').innerText()).resolves.toMatch(/TP2 \S*\/h100-/);
      await app.screenshot('plans-tensor-parallel-light');

      // Library: export this machine's hardware profile as a download.
      await app.go('library');
      await page.getByTestId('machines-table').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-button').click()]);
      expect(download.suggestedFilename()).toMatch(/\.json$/);
      const file = await download.path();
      const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; measurements: unknown[] };
      expect(exported.format).toBe('pipedejavu-hardware-profile');
      expect(exported.measurements.length).toBeGreaterThan(10);
      await page.getByTestId('export-result').waitFor();

      // Every view, light and dark.
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        for (const v of VIEWS) {
          await app.go(v);
          await page.waitForTimeout(300);
          await app.screenshot(`${v}-${theme}`);
        }
      }
      await expect(page.getByTestId('error-message').count()).resolves.toBe(0);
      expect(app.errors).toEqual([]);
    });

    it('shows one clear error for a bad import file and changes nothing', { timeout: 120_000 }, async () => {
      app = await openApp();
      const { page } = app;
      await page.getByTestId('probe-button').click();
      await page.getByTestId('device-list').waitFor();
      await app.go('library');
      const rows = page.getByTestId('machines-table').locator('tbody tr');
      await rows.first().waitFor();
      const before = await rows.count();
      const garbage = path.join(app.served.dir, 'not-a-profile.json');
      writeFileSync(garbage, '{"format": "pipedejavu-hardware-profile", "machine": [oops');
      await page.getByTestId('import-file-input').setInputFiles(garbage);
      const error = page.getByTestId('error-message');
      await error.waitFor();
      await expect(error.count()).resolves.toBe(1);
      const text = (await error.innerText()).trim();
      expect(text.split('\n')).toHaveLength(1);
      expect(text).toMatch(/not-a-profile\.json|JSON/i);
      await app.screenshot('library-import-error-light');
      await page.reload();
      await app.go('library');
      await rows.first().waitFor();
      await expect(rows.count()).resolves.toBe(before);
      await expect(page.getByTestId('error-message').count()).resolves.toBe(0);
    });

    it('cancels a profile, says so, and keeps the kernels it finished', { timeout: 180_000 }, async () => {
      app = await openApp();
      const { page } = app;
      await app.go('profile');
      await page.getByTestId('profile-threads').fill('1');
      await page.getByTestId('profile-start').click();
      await job(app, 'profile', ['running']).waitFor();
      // Let a few kernels finish, then cancel.
      await page.getByTestId('live-kernels').locator('tbody tr').nth(4).waitFor({ timeout: 120_000 });
      await page.getByTestId('profile-cancel').click();
      await job(app, 'profile', ['cancelled', 'done', 'failed']).waitFor({ timeout: 60_000 });
      await expect(page.getByTestId('job-progress').getAttribute('data-state')).resolves.toBe('cancelled');
      await expect(page.getByTestId('profile-cancelled').innerText()).resolves.toMatch(
        /Cancelled\. \d+ kernels? measured/,
      );
      const run = page.locator('[data-testid=runs-table] tbody tr[data-run-status=interrupted]');
      await run.first().waitFor();
      const measured = Number((await run.first().locator('td').nth(7).innerText()).replace(/\D/g, ''));
      expect(measured).toBeGreaterThan(0);
      await app.screenshot('profile-cancelled-light');
    });

    it(
      'imports a GPU machine, draws its topology, compares it, and moves between views by keyboard',
      { timeout: 120_000 },
      async () => {
        app = await openApp();
        const { page } = app;
        await page.getByTestId('probe-button').click();
        await page.getByTestId('device-list').waitFor();

        // Tab reaches the nav; arrows move between views, Home and End to the ends.
        await page.getByTestId('nav-workstation').focus();
        await page.keyboard.press('ArrowDown');
        await expect(page.evaluate("document.activeElement?.getAttribute('data-testid')")).resolves.toBe('nav-profile');
        await page.locator('[data-testid=nav-profile][aria-current=page]').waitFor();
        await page.keyboard.press('End');
        await page.locator('[data-testid=nav-library][aria-current=page]').waitFor();
        await page.keyboard.press('ArrowRight');
        await page.locator('[data-testid=nav-workstation][aria-current=page]').waitFor();

        // A good hardware profile from a two-GPU lab machine.
        await app.go('library');
        const file = path.join(app.served.dir, 'gpu-box.json');
        writeFileSync(file, encodeProfile(gpuServerProfile()));
        await page.getByTestId('import-file-input').setInputFiles(file);
        await expect(page.getByTestId('import-result').innerText()).resolves.toMatch(
          /Imported gpu-box: 3 devices, 2 runs/,
        );
        // The list is fetched again after the import's result shows.
        await expect
          .poll(() => page.getByTestId('machines-table').locator('tbody tr').count(), { timeout: 10_000 })
          .toBe(2);
        // Side by side: this machine and the imported one with its measured GPUs.
        await expect
          .poll(() => page.getByTestId('compare-machine').allInnerTexts(), { timeout: 20_000 })
          .toContainEqual(GPU_BOX);
        await expect(page.getByTestId('compare-table').innerText()).resolves.toContain('cuda:0');
        await page.getByTestId('compare-card').getByTestId('roofline-chart').waitFor();
        await app.screenshot('library-compare-light');

        await app.go('workstation');
        await page.getByTestId('workstation-machine').selectOption({ label: `${GPU_BOX} (imported)` });
        await page.getByTestId('topology-grid').waitFor();
        await expect(page.getByTestId('topology-grid').innerText()).resolves.toContain('PHB');
        await app.screenshot('workstation-imported-gpu-light');
        await expect(page.getByTestId('error-message').count()).resolves.toBe(0);

        // Removing the imported machine (after confirming) leaves this one.
        await app.go('library');
        await page.getByTestId('machines-table').getByLabel(`Select ${GPU_BOX}`).check();
        page.once('dialog', (d) => void d.accept());
        await page.getByTestId('remove-machine-button').click();
        await expect
          .poll(() => page.getByTestId('machines-table').locator('tbody tr').count(), { timeout: 10_000 })
          .toBe(1);
        await expect(page.getByTestId('error-message').count()).resolves.toBe(0);
      },
    );
  },
);
