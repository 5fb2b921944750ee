/**
 * Electron main process: a thin shell. It opens one secure window on the built renderer,
 * wires the contract's channels to the same dispatch `pipedejavu serve` uses, forwards
 * job events, and keeps its database in userData. Everything else lives in the core.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session } from 'electron';
import { JOB_EVENT_CHANNEL } from '../api/contract.js';
import { createAppCore, type AppCore } from '../app/app-core.js';
import { defaultJobRunnerPath } from '../app/jobs/child-executor.js';
import { defaultRunnerPath } from '../adapters/ort/kernel-runner.js';
import { DB_FILE } from '../adapters/paths/data-dir.js';
import { runtimeVersions } from '../services/machine/runtime-versions.js';
import { CONTENT_SECURITY_POLICY, defaultRendererDir, readStatic } from '../adapters/web/renderer-files.js';
import { nativeDialogs } from './dialogs.js';
import { ipcHandlers } from './ipc-guard.js';
import { menuTemplate } from './menu.js';
import { MENU_NAVIGATE } from './menu-channel.js';
import { denyPermissions, lockDownApp, secureWebPreferences } from './security.js';
import { utilityLauncher } from './utility-launcher.js';
import { loadWindowState, saveWindowState } from './window-state.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = defaultRendererDir();
// The renderer is served from a privileged custom scheme rather than file:// (the security
// checklist's advice): only the built renderer's files are reachable, with the app's CSP.
const APP_SCHEME = 'app';
const rendererUrl = `${APP_SCHEME}://renderer/index.html`;
const preload = path.join(here, 'preload.cjs');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

function serveRenderer(): void {
  protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url);
    const file = url.host === 'renderer' ? readStatic(rendererDir, url.pathname) : null;
    if (!file) return new Response('not found', { status: 404 });
    return new Response(file.body, {
      headers: { 'content-type': file.type, 'content-security-policy': CONTENT_SECURITY_POLICY },
    });
  });
}

let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;

function createWindow(): BrowserWindow {
  const stateFile = path.join(app.getPath('userData'), 'window-state.json');
  const state = loadWindowState(stateFile);
  const win = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 1024,
    minHeight: 700,
    show: false,
    title: 'pipeDejavu',
    webPreferences: secureWebPreferences(preload, app.isPackaged),
  });
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const b = win.getNormalBounds();
    saveWindowState(stateFile, { ...b, maximized: win.isMaximized() });
  });
  void win.loadURL(rendererUrl);
  return win;
}

async function start(): Promise<void> {
  await app.whenReady();
  serveRenderer();
  lockDownApp(app, rendererUrl);
  denyPermissions(session.defaultSession);
  const dbPath = path.join(app.getPath('userData'), DB_FILE);
  // The job and kernel runners are utility processes (the binary never runs as plain Node).
  core = createAppCore({
    dbPath,
    transport: 'electron',
    launcher: utilityLauncher([defaultJobRunnerPath(), defaultRunnerPath()]),
    dialogs: nativeDialogs(dialog, () => mainWindow, dbPath),
    runtime: { ...runtimeVersions(), electron: process.versions.electron ?? '?' },
  });
  for (const [channel, handler] of ipcHandlers(core.dispatch, rendererUrl)) {
    ipcMain.handle(channel, (event, payload: unknown) => handler(event, payload));
  }
  core.jobs.subscribe((e) => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(JOB_EVENT_CHANNEL, e);
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate((view) => mainWindow?.webContents.send(MENU_NAVIGATE, view), {
        isMac: process.platform === 'darwin',
        packaged: app.isPackaged,
      }),
    ),
  );
  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('before-quit', () => {
  core?.close();
  core = null;
});

if (!app.requestSingleInstanceLock()) app.quit();
else
  start().catch((e: unknown) => {
    dialog.showErrorBox('pipeDejavu cannot start', String(e));
    app.exit(1);
  });
