/**
 * Fine-tuning in the app against a real `pipedejavu serve`: the Plans view plans QLoRA of
 * Llama 3.1 8B at a sequence length on two datasheet GPUs (RTX 4090 and RTX 3090) and shows what it
 * assumed, the adapter planned and the memory per device, then says that Llama 3.1 70B fits no plan
 * there and what would; the Workloads view's fit table in fine-tuning mode lists the LoRA and
 * QLoRA rows. Needs Chromium (see harness.ts); skips without it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, openApp, SKIP_REASON, type App } from './harness.js';

if (SKIP_REASON) console.warn(`fine-tuning e2e skipped: ${SKIP_REASON}`);

describe.skipIf(!HAS_CHROMIUM && process.env.CI !== 'true')(
  `fine-tuning in a browser${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let app: App | undefined;

    afterEach(async () => {
      await app?.stop();
      app = undefined;
    });

    it(
      'plans QLoRA on an RTX 4090 and an RTX 3090, and shows the fine-tuning fit table',
      { timeout: 180_000 },
      async () => {
        app = await openApp();
        const { page } = app;

        // Plans: fine-tuning mode, QLoRA, all targets (none checked), PEFT, on two datasheet GPUs.
        await app.go('plans');
        await page.getByTestId('plan-workload').selectOption('llama-3.1-8b');
        await page.getByTestId('plan-mode').selectOption('finetune');
        await page.getByTestId('plan-finetune').waitFor();
        await expect(page.getByTestId('plan-rank').inputValue()).resolves.toBe('16');
        await page.getByTestId('plan-adapter').selectOption('qlora');
        const picker = page.getByTestId('plan-virtual');
        await picker.getByLabel('NVIDIA GeForce RTX 4090', { exact: true }).fill('1');
        await picker.getByLabel('NVIDIA GeForce RTX 3090', { exact: true }).fill('1');
        await page.getByTestId('plan-seq').fill('2048');
        await page.getByTestId('plan-run').click();
        await page.getByTestId('plan-finetune-head').waitFor({ timeout: 120_000 });
        // The figures say what they assume: the sequence asked first, the batch left at its default.
        await expect(page.getByTestId('plan-assumptions').innerText()).resolves.toMatch(
          /^Assumes: sequence 2,048 tokens, batch 8 \(default\), nf4 weights, bf16 compute, stack PEFT/,
        );
        await expect(page.getByTestId('plan-finetune-head').innerText()).resolves.toBe(
          'QLoRA r16 α32 on q,k,v,o,gate,up,down · PEFT',
        );
        const rows = page.getByTestId('plans-table').locator('tbody tr');
        expect(await rows.count()).toBeGreaterThanOrEqual(1);
        await expect(rows.first().innerText()).resolves.toContain('best');
        const memory = page.getByTestId('memory-chart');
        await expect(memory.getByRole('listitem').count()).resolves.toBeGreaterThanOrEqual(1);
        await expect(memory.innerText()).resolves.toMatch(/GiB \/ \d+(\.\d+)? GiB/);
        await expect(memory.innerText()).resolves.toMatch(/RTX (4090|3090)/);
        await page.getByTestId('plan-finetune').scrollIntoViewIfNeeded();
        await app.screenshot('plans-finetune-form-light');
        await page.getByTestId('export-tab-finetune').click();
        await expect(page.getByTestId('export-snippets').innerText()).resolves.toContain('LoraConfig');
        await app.screenshot('plans-finetune-qlora-light');

        // A model that does not fit: said as the CLI says it, with what would fit, and no plan ranked as a result.
        await page.getByTestId('plan-workload').selectOption('llama-3.1-70b');
        await page.getByTestId('plan-mode').selectOption('inference');
        await page.getByTestId('plan-seq').fill('');
        await page.getByTestId('plan-run').click();
        await page.getByTestId('plan-none-fits').waitFor({ timeout: 120_000 });
        await expect(page.getByTestId('plan-none-fits').innerText()).resolves.toContain('No plan fits these devices.');
        await expect(page.getByTestId('plan-suggestions').innerText()).resolves.toContain('What would fit');
        // Serving changes in the serving table's figures, as the CLI writes them: no samples/s.
        const served = await page.getByTestId('plan-suggestion-plan').allInnerTexts();
        expect(served.length).toBeGreaterThan(0);
        for (const t of served) expect(t).toMatch(/: first token .+, decode step .+, [\d.]+ tokens\/s a sequence/);
        await expect(page.getByTestId('plan-suggestions').innerText()).resolves.not.toMatch(/samples\/s/);
        await expect(page.getByTestId('plans-table').count()).resolves.toBe(0);
        await expect(page.getByTestId('serving-table').count()).resolves.toBe(0);
        await expect(page.getByTestId('plan-assumptions').innerText()).resolves.toMatch(
          /^Assumes: prompt 1,024 \+ 256 output tokens \(defaults\), batch 1 \(default\), bf16, engine vLLM/,
        );
        await page.getByTestId('plan-assumptions').scrollIntoViewIfNeeded();
        await app.screenshot('plans-none-fits-light');

        // Workloads: the fit table in fine-tuning mode, LoRA and QLoRA rows, the stack in its note.
        await app.go('workloads');
        await page.getByTestId('catalog-select').selectOption('llama-3.1-8b');
        await page.getByTestId('fit-mode').selectOption('finetune');
        await page.getByTestId('fit-stack').selectOption('unsloth');
        await page.getByTestId('fit-run').click();
        const table = page.getByTestId('fit-table');
        await table.waitFor({ timeout: 60_000 });
        const labels = await table.locator('tbody tr td:first-child').allInnerTexts();
        expect(labels.some((l) => l.startsWith('LoRA'))).toBe(true);
        expect(labels.some((l) => l.startsWith('QLoRA'))).toBe(true);
        await expect(table.locator('caption').innerText()).resolves.toContain('fine-tuning');
        // Time from the datasheet of the first GPU that holds the row (QLoRA with recomputation fits many).
        await expect(table.getByTestId('fit-time').last().innerText()).resolves.toMatch(/ a step on /);
        await expect(page.getByTestId('fit-note').first().innerText()).resolves.toContain('Unsloth');
        await table.scrollIntoViewIfNeeded();
        await app.screenshot('workloads-fit-finetune-light');

        // A fresh store has no profile: the per-layer prediction says so, and nothing else fails.
        const shown = await page.getByTestId('error-message').allInnerTexts();
        expect(shown.filter((e) => !/no machine recorded yet/.test(e))).toEqual([]);
        expect(app.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
      },
    );
  },
);
