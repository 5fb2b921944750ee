/**
 * End-to-end harness: a real `pipedejavu serve` on a fresh database in a temp dir, and
 * Chromium driven by playwright-core at 1280x800. The server prints its URL (with the
 * session token) as its first line; `stop()` ends the browser and the server and removes
 * the temp dir. Chromium comes from the system (Debian's /usr/bin/chromium, or
 * $PIPEDEJAVU_CHROMIUM); without it the suites skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM = process.env.PIPEDEJAVU_CHROMIUM ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const SKIP_REASON = HAS_CHROMIUM
  ? null
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or point PIPEDEJAVU_CHROMIUM at one)`;
export const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');
export const VIEWPORT = { width: 1280, height: 800 };

const URL_TIMEOUT_MS = 30_000;

/** Builds the CLI and the renderer when either is missing (the root global setup usually did). */
export function ensureBuilt(): void {
  if (existsSync(path.join(ROOT, 'dist/cli.js')) && existsSync(path.join(ROOT, 'src-renderer/dist/index.html'))) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('node scripts/build.mjs failed');
}

export interface Served {
  url: string;
  dir: string;
  dbPath: string;
  process: ChildProcess;
  /** Everything the server wrote to stderr so far (for failure messages). */
  stderr(): string;
}

/** Starts `pipedejavu serve --port 0` on a fresh database and resolves with the URL it prints. */
export function startServer(dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-e2e-'))): Promise<Served> {
  const dbPath = path.join(dir, 'db.sqlite');
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/pipedejavu.js'), 'serve', '--db', dbPath, '--port', '0'],
    {
      cwd: ROOT,
      env: { ...process.env, PIPEDEJAVU_DB: dbPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (err += t));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pipedejavu serve printed no URL in ${URL_TIMEOUT_MS} ms; stderr: ${err}`));
    }, URL_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pipedejavu serve exited (${code}) before printing its URL; stderr: ${err}`));
    });
    child.stdout?.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const url = out.slice(0, nl).trim();
      clearTimeout(timer);
      child.removeAllListeners('exit');
      if (!/^http:\/\/127\.0\.0\.1:\d+\/\?token=/.test(url)) {
        child.kill('SIGKILL');
        reject(new Error(`unexpected first line from pipedejavu serve: ${url}`));
        return;
      }
      resolve({ url, dir, dbPath, process: child, stderr: () => err });
    });
  });
}

async function stopServer(s: Served): Promise<void> {
  const child = s.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface App {
  served: Served;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Browser console errors and page errors seen so far. */
  errors: string[];
  /** Saves a 1280x800 screenshot as test-results/screenshots/<name>.png. */
  screenshot(name: string): Promise<string>;
  /** Saves a screenshot of one element (by data-testid, the first match) as <name>.png. */
  screenshotOf(testid: string, name: string): Promise<string>;
  /** Clicks a nav tab and waits for its view's heading. */
  go(view: 'workstation' | 'profile' | 'predictor' | 'workloads' | 'plans' | 'serving' | 'library'): Promise<void>;
  stop(): Promise<void>;
}

/** `dir`: serve the store already there (`<dir>/db.sqlite`, e.g. one the CLI filled) instead of a fresh one. */
export async function openApp(o: { colorScheme?: 'light' | 'dark'; dir?: string } = {}): Promise<App> {
  ensureBuilt();
  const served = await startServer(o.dir);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({
      viewport: VIEWPORT,
      colorScheme: o.colorScheme ?? 'light',
      acceptDownloads: true,
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(served.url).origin });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(served.url);
    await page.getByTestId('nav-workstation').waitFor();
    const b = browser;
    return {
      served,
      browser: b,
      context,
      page,
      errors,
      async screenshot(name) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        const file = path.join(SCREENSHOTS, `${name}.png`);
        await page.screenshot({ path: file });
        return file;
      },
      async screenshotOf(testid, name) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        const file = path.join(SCREENSHOTS, `${name}.png`);
        await page.getByTestId(testid).first().screenshot({ path: file });
        return file;
      },
      async go(view) {
        await page.getByTestId(`nav-${view}`).click();
        await page.locator(`[data-testid=nav-${view}][aria-current=page]`).waitFor();
        await page.locator('main h1').first().waitFor();
      },
      async stop() {
        await b.close().catch(() => undefined);
        await stopServer(served);
        rmSync(served.dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await stopServer(served);
    rmSync(served.dir, { recursive: true, force: true });
    throw e;
  }
}
