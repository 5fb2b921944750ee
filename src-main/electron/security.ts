/**
 * The Electron security checklist, applied in one place: web preferences, navigation and
 * new windows blocked, webviews refused, every permission denied.
 */
import type { App, Session, WebPreferences } from 'electron';

/** DevTools only in development: a packaged build gives the renderer's users no console. */
export function secureWebPreferences(preload: string, packaged: boolean): WebPreferences {
  return {
    preload,
    devTools: !packaged,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    spellcheck: false,
  };
}

export function lockDownApp(app: App, rendererUrl: string): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (e, url) => {
      if (url !== rendererUrl) e.preventDefault();
    });
    contents.on('will-redirect', (e) => e.preventDefault());
    // Sub-frames (the renderer has none) never navigate anywhere.
    contents.on('will-frame-navigate', (e) => {
      if (!e.isMainFrame) e.preventDefault();
    });
    contents.on('will-attach-webview', (e) => e.preventDefault());
    // Links never open windows, and never the system browser with untrusted input.
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
