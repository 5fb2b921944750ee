/**
 * Serving capacity in the app against a real `pipedejavu serve`: the Serving view runs the README's
 * serving example (Llama 3.1 8B at 20 requests/s, prompts of 2,000 tokens and answers of 300, p90
 * TTFT under 1 s and p90 TPOT under 50 ms, on H100 SXM5, A100 80GB and RTX 4090) and shows the ranked deployments with their percentiles,
 * band and costs, where the default prices came from, and the chosen deployment's latency-vs-rate
 * chart; the table fits 1280 px. Then drawn lengths with bursts (a bad spec refused beside its field)
 * and a JSONL trace chosen in the browser. Needs Chromium (see harness.ts); skips without it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, openApp, SKIP_REASON, type App } from './harness.js';

/** How many pixels the deployments table runs past its card (0: it fits). */
const tableOverflow = async (page: Page): Promise<number> =>
  Number(
    await page.evaluate(
      `(() => { const w = document.querySelector('[data-testid="serving-deployments"]')?.parentElement; return w ? w.scrollWidth - w.clientWidth : -1; })()`,
    ),
  );

if (SKIP_REASON) console.warn(`serving e2e skipped: ${SKIP_REASON}`);

describe.skipIf(!HAS_CHROMIUM && process.env.CI !== 'true')(
  `serving capacity in a browser${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let app: App | undefined;

    afterEach(async () => {
      await app?.stop();
      app = undefined;
    });

    it("runs the README's serving example and draws the chosen deployment's curve", { timeout: 180_000 }, async () => {
      app = await openApp();
      const { page } = app;
      await app.go('serving');
      await expect(page.locator('main h1').innerText()).resolves.toBe('Serving');

      // A bad form is refused in one line before anything is sent.
      await page.getByTestId('serving-workload').selectOption('llama-3.1-8b');
      await page.getByTestId('serving-rate').fill('0');
      await page.getByTestId('serving-run').click();
      await expect(page.getByTestId('error-message').innerText()).resolves.toBe(
        'The rate must be requests per second above 0.',
      );

      // The README's example: its defaults are the form's (p90 TTFT 1 s, p90 TPOT 50 ms).
      await page.getByTestId('serving-rate').fill('20');
      await page.getByTestId('serving-prompt').fill('2000');
      await page.getByTestId('serving-output').fill('300');
      await expect(page.getByTestId('serving-slo-ttft-p90').inputValue()).resolves.toBe('1000');
      await expect(page.getByTestId('serving-slo-tpot-p90').inputValue()).resolves.toBe('50');
      const gpus = page.getByTestId('serving-gpus');
      for (const [search, name] of [
        ['h100 sxm5', 'NVIDIA H100 SXM5 80GB'],
        ['a100 sxm4 80gb', 'NVIDIA A100 SXM4 80GB'],
        ['4090', 'NVIDIA GeForce RTX 4090'],
      ] as const) {
        await page.getByTestId('serving-gpu-search').fill(search);
        await gpus.getByRole('checkbox', { name, exact: true }).check();
      }
      await page.getByTestId('serving-gpu-search').fill('');
      await expect(gpus.locator('legend').innerText()).resolves.toContain('3 checked');
      await page.getByTestId('serving-run').click();

      const table = page.getByTestId('serving-deployments');
      await table.waitFor({ timeout: 120_000 });
      await expect(page.getByTestId('serving-summary').innerText()).resolves.toContain(
        '20 requests/s · prompt 2000 + 300 output tokens · p90 TTFT < 1 s · p90 TPOT < 50 ms',
      );
      const rows = table.getByTestId('serving-row');
      expect(await rows.count()).toBeGreaterThanOrEqual(1);
      // Each row: what it is, its percentiles (the capped one with its range), where it breaks, its cost.
      await expect(rows.first().getByTestId('serving-deployment').innerText()).resolves.toMatch(
        / · \w+\n\d+ replicas? · [\d.]+ requests\/s each · /,
      );
      // TTFT and TPOT a line each under p50, p90, p99; the capped p90 with its range beneath it.
      await expect(rows.first().getByTestId('serving-ttft').innerText()).resolves.toMatch(
        /^TTFT\s+[\d.]+ m?s\s+[\d.]+ m?s\s+[\d.]+ m?s – [\d.]+ m?s\s+[\d.]+ m?s$/,
      );
      await expect(rows.first().getByTestId('serving-cost').innerText()).resolves.toMatch(
        /^\$[\d.]+\/h\n\$[\d.]+ per M output tokens$/,
      );
      await expect(page.getByTestId('serving-band').innerText()).resolves.toMatch(/^How far off: /);
      await expect(page.getByTestId('serving-prices').innerText()).resolves.toMatch(
        /^Prices are defaults from .+, \d{4}-\d\d/,
      );

      // The chart of the cheapest: both latencies against the rate, the SLO on each.
      const chart = page.getByTestId('latency-rate-chart');
      await chart.waitFor();
      await expect(chart.getByTestId('latency-rate-ttft').getAttribute('aria-label')).resolves.toMatch(
        /^Time to first token against request rate: p50, p90, p99; SLO p90 under 1 s; /,
      );
      await expect(chart.getByTestId('latency-rate-slo').count()).resolves.toBe(2);
      await expect(chart.locator('polyline').count()).resolves.toBeGreaterThanOrEqual(6);
      // At 1280 x 800 the table fits its card: the Cost column is in view, nothing scrolls sideways.
      await page.getByTestId('serving-deployments').scrollIntoViewIfNeeded();
      await expect(tableOverflow(page)).resolves.toBe(0);
      await app.screenshot('serving-deployments-light');
      await chart.scrollIntoViewIfNeeded();
      await app.screenshotOf('latency-rate-chart', 'serving-latency-rate-chart-light');

      // Another deployment's curve on choosing it.
      if ((await rows.count()) > 1) {
        await rows.nth(1).getByRole('button').click();
        await expect(rows.nth(1).getByRole('button').getAttribute('aria-pressed')).resolves.toBe('true');
      }

      // Drawn lengths and bursts, as serve-plan --prompt/--output/--burst take them: a bad spec is
      // refused beside its field in the parser's words, a good one is searched.
      await page.getByTestId('serving-prompt').fill('lognormal:2000');
      await expect(page.getByTestId('serving-prompt-error').innerText()).resolves.toBe(
        'prompt lognormal:2000: write lognormal:MEDIAN:SIGMA, e.g. lognormal:2000:0.6',
      );
      await page.getByTestId('serving-prompt').fill('lognormal:2000:0.6');
      await expect(page.getByTestId('serving-prompt-error').count()).resolves.toBe(0);
      await page.getByTestId('serving-output').fill('100-500');
      await page.getByTestId('serving-burst').fill('2');
      await page.getByTestId('serving-run').click();
      await page.getByTestId('serving-summary').filter({ hasText: 'bursts, CV 2' }).waitFor({ timeout: 120_000 });
      await expect(page.getByTestId('serving-summary').innerText()).resolves.toMatch(
        /20 requests\/s · prompts mean [\d,]+ \+ outputs mean 300 tokens · bursts, CV 2 · p90 TTFT < 1 s/,
      );
      await expect(page.locator('main').innerText()).resolves.toMatch(
        /prompts lognormal, median 2000 tokens, sigma 0\.6.*; outputs uniform 100-500 tokens/,
      );
      expect(await rows.count()).toBeGreaterThanOrEqual(1);
      await page.getByTestId('serving-load-fields').scrollIntoViewIfNeeded();
      await app.screenshot('serving-distribution-form-light');
      await table.scrollIntoViewIfNeeded();
      await expect(tableOverflow(page)).resolves.toBe(0);
      await app.screenshot('serving-distribution-light');

      // A trace chosen in the browser, sent as its text: its rows give the lengths and arrivals, and with the
      // rate emptied its own mean rate (59 gaps over 2.95 s: 20 requests/s), as serve-plan --trace without --rate.
      const trace = Array.from({ length: 60 }, (_, i) =>
        JSON.stringify({ t: i * 0.05, prompt: 1500 + 10 * i, output: 200 }),
      );
      await page.getByTestId('serving-trace').setInputFiles({
        name: 'chat.jsonl',
        mimeType: 'application/json',
        buffer: Buffer.from(`${trace.join('\n')}\n`),
      });
      await expect(page.getByTestId('serving-trace-chosen').innerText()).resolves.toMatch(
        /^chat\.jsonl: its rows give/,
      );
      await expect(page.getByTestId('serving-prompt').isDisabled()).resolves.toBe(true);
      await page.getByTestId('serving-rate').fill('');
      await expect(page.getByTestId('serving-rate').getAttribute('placeholder')).resolves.toBe("the trace's own");
      await page.getByTestId('serving-run').click();
      await page.getByText("chat.jsonl's first", { exact: false }).first().waitFor({ timeout: 120_000 });
      await expect(page.getByTestId('serving-summary').innerText()).resolves.toContain(
        "20 requests/s (the trace's own mean) · ",
      );
      await expect(page.getByTestId('serving-summary').innerText()).resolves.toContain('+ outputs mean 200 tokens');
      await expect(page.locator('main').innerText()).resolves.toContain(
        "rate: none given, so chat.jsonl's own mean over its first 60 arrival times, 20.0 req/s",
      );
      await page.getByTestId('serving-load-fields').scrollIntoViewIfNeeded();
      await app.screenshot('serving-trace-light');
      expect(app.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    });
  },
);
