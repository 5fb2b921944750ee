/** The Electron checklist parts that do not need Electron to check. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lockDownApp, secureWebPreferences } from '../../../src-main/electron/security.js';

type Listener = (...args: unknown[]) => void;

function fakeContents(): {
  on: (ev: string, l: Listener) => void;
  setWindowOpenHandler: () => void;
  fire: (ev: string, e: unknown, ...rest: unknown[]) => void;
} {
  const listeners = new Map<string, Listener[]>();
  return {
    on: (ev, l) => listeners.set(ev, [...(listeners.get(ev) ?? []), l]),
    setWindowOpenHandler: () => undefined,
    fire: (ev, e, ...rest) => {
      for (const l of listeners.get(ev) ?? []) l(e, ...rest);
    },
  };
}

describe('Electron security', () => {
  it('turns DevTools off in packaged builds only', () => {
    expect(secureWebPreferences('/p.js', true).devTools).toBe(false);
    expect(secureWebPreferences('/p.js', false).devTools).toBe(true);
    expect(secureWebPreferences('/p.js', true)).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
  });

  it('blocks every sub-frame navigation and lets the main frame stay on the renderer', () => {
    let created: Listener = () => undefined;
    lockDownApp({ on: (_ev: string, l: Listener) => (created = l) } as never, 'app://renderer/index.html');
    const contents = fakeContents();
    created({}, contents);
    const sub = {
      isMainFrame: false,
      url: 'https://evil.example/',
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.fire('will-frame-navigate', sub);
    expect(sub.prevented).toBe(true);
    const main = {
      isMainFrame: true,
      url: 'app://renderer/index.html',
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.fire('will-frame-navigate', main);
    expect(main.prevented).toBe(false);
    const away = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.fire('will-navigate', away, 'https://evil.example/');
    expect(away.prevented).toBe(true);
  });

  it('packages with the fuses flipped: no run-as-Node, encrypted cookies, no NODE_OPTIONS or --inspect, asar only', () => {
    // The block's `  key: true|false` lines (no YAML library among the dependencies).
    const yml = readFileSync('electron-builder.yml', 'utf8');
    const block = /^electronFuses:\n((?: {2}\w+: (?:true|false)\n)+)/m.exec(yml)?.[1] ?? '';
    const fuses = Object.fromEntries(
      [...block.matchAll(/^ {2}(\w+): (true|false)$/gm)].map((m) => [m[1], m[2] === 'true']),
    );
    expect(fuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
