/**
 * The renderer as the desktop app loads it: from disk (relative asset paths, the CSP meta tag),
 * talking to `window.pipedejavu` instead of HTTP. The app serves the files from its own
 * privileged `app://` scheme; here they are loaded from file:// with Chromium's
 * --allow-file-access-from-files, which lets module scripts load as that scheme does. The Electron binary cannot be
 * downloaded here, so the preload bridge is replayed: the page's bridge calls the real app core
 * (the same dispatch the IPC handlers call, with the IPC guard's sender check) in this test
 * process, job events are pushed as `webContents.send` would, and native dialogs return chosen
 * files. Everything behind the bridge is real: store, job runners, ONNX Runtime.
 */
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createAppCore, type AppCore } from '../../src-main/app/app-core.js';
import type { Dialogs } from '../../src-main/app/app-deps.js';
import { ipcHandlers } from '../../src-main/electron/ipc-guard.js';
import type { ChannelName } from '../../src-main/api/contract.js';
import { encodeProfile } from '../../src-main/core/profile-file/codec.js';
import { CHROMIUM, HAS_CHROMIUM, ROOT, SCREENSHOTS, SKIP_REASON, ensureBuilt } from './harness.js';
import { gpuServerProfile, GPU_BOX } from '../helpers/gpu-profile.js';

const INDEX = path.join(ROOT, 'src-renderer/dist/index.html');
const ONNX = path.join(ROOT, 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');

describe.skipIf(!HAS_CHROMIUM && process.env.CI !== 'true')(
  `the renderer over the preload bridge, from file://${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let dir: string;
    let core: AppCore;
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    const opened: string[] = [];
    let nextOpen: { fileName: string; path: string; text: string | null } | null = null;
    const saved: { fileName: string; text: string }[] = [];

    beforeAll(async () => {
      ensureBuilt();
      dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-desktop-'));
      const picked = new Set<string>();
      const dialogs: Dialogs = {
        open: async (purpose) => {
          opened.push(purpose);
          const r = nextOpen;
          nextOpen = null;
          if (r) picked.add(r.path);
          return r;
        },
        opened: (p) => picked.has(p),
        save: async (fileName, text) => {
          saved.push({ fileName, text });
          return { path: path.join(dir, fileName) };
        },
      };
      core = createAppCore({ dbPath: path.join(dir, 'userData', 'pipedejavu.db'), transport: 'electron', dialogs });
      const url = pathToFileURL(INDEX).toString();
      const handlers = ipcHandlers(core.dispatch, url);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless=new',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--allow-file-access-from-files',
        ],
      });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      // ipcRenderer.invoke -> ipcMain.handle(channel): the sender frame is the page's main frame.
      await page.exposeFunction('__pdjvInvoke', (channel: string, payload: unknown) => {
        const h = handlers.get(channel as ChannelName);
        if (!h) return { ok: false, error: { code: 'not-found', message: 'unknown channel' } };
        return h({ senderFrame: { url: page.mainFrame().url(), parent: null } }, payload);
      });
      await page.addInitScript(() => {
        const w = globalThis as unknown as {
          __pdjvInvoke: (c: string, p: unknown) => Promise<unknown>;
          __pdjvJob: ((e: unknown) => void)[];
          __pdjvMenu: ((v: string) => void)[];
          pipedejavu: unknown;
        };
        w.__pdjvJob = [];
        w.__pdjvMenu = [];
        w.pipedejavu = Object.freeze({
          invoke: (channel: string, payload: unknown) => w.__pdjvInvoke(channel, payload),
          onJobEvent: (l: (e: unknown) => void) => {
            w.__pdjvJob.push(l);
            return () => (w.__pdjvJob = w.__pdjvJob.filter((x) => x !== l));
          },
          onMenuNavigate: (l: (v: string) => void) => {
            w.__pdjvMenu.push(l);
            return () => (w.__pdjvMenu = w.__pdjvMenu.filter((x) => x !== l));
          },
        });
      });
      // webContents.send('job:event', e)
      core.jobs.subscribe((e) => {
        void page
          .evaluate((ev) => {
            for (const l of (globalThis as unknown as { __pdjvJob: ((e: unknown) => void)[] }).__pdjvJob) l(ev);
          }, e)
          .catch(() => undefined);
      });
      await page.goto(url);
      await page.getByTestId('nav-workstation').waitFor();
    });

    afterAll(async () => {
      await browser?.close();
      core?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('loads from file:// and says it is the desktop app', async () => {
      expect(page.url()).toMatch(/^file:.*index\.html/);
      await expect(page.getByText('v0.1.0 · desktop').count()).resolves.toBe(1);
      await page.getByTestId('probe-button').click();
      await page.getByTestId('device-list').waitFor();
      // The Go menu (Ctrl+3) navigates.
      await page.evaluate(() => {
        for (const l of (globalThis as unknown as { __pdjvMenu: ((v: string) => void)[] }).__pdjvMenu) l('predictor');
      });
      await page.locator('[data-testid=nav-predictor][aria-current=page]').waitFor();
    });

    it('imports a profile and adds a model through native dialogs, and saves an export', async () => {
      const file = path.join(dir, 'gpu-box.json');
      writeFileSync(file, encodeProfile(gpuServerProfile()));
      await page.getByTestId('nav-library').click();
      nextOpen = { fileName: 'gpu-box.json', path: file, text: encodeProfile(gpuServerProfile()) };
      await page.getByRole('button', { name: 'Choose a file…' }).click();
      await expect(page.getByTestId('import-result').innerText()).resolves.toMatch(/Imported gpu-box: 3 devices/);
      expect(opened).toEqual(['profile']);

      await page.getByTestId('machines-table').getByLabel(`Select ${GPU_BOX}`).check();
      await page.getByTestId('export-button').click();
      await expect(page.getByTestId('export-result').innerText()).resolves.toMatch(/^Saved gpu-box to /);
      expect(saved[0]?.fileName).toMatch(/gpu-box\.pipedejavu\.json$/);
      expect(JSON.parse(saved[0]?.text ?? '{}')).toMatchObject({ format: 'pipedejavu-hardware-profile' });

      await page.getByTestId('nav-workloads').click();
      await page.getByTestId('workload-shapes').fill('x=1x3x48x192');
      nextOpen = { fileName: 'paddleocr-cls-mobile-v2.onnx', path: ONNX, text: null };
      await page.getByTestId('workload-add-button').click();
      await page.getByTestId('workloads-table').getByText('paddleocr-cls-mobile-v2').waitFor();
      expect(opened).toEqual(['profile', 'onnx']);
      // A cancelled dialog changes nothing and shows no error.
      await page.getByTestId('workload-add-button').click();
      await expect(page.getByTestId('workloads-table').locator('tbody tr').count()).resolves.toBe(1);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'desktop-workloads-light.png') });
      expect(errors).toEqual([]);
    });
  },
);
