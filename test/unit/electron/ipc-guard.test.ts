import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ipcHandlers, isTrustedSender } from '../../../src-main/electron/ipc-guard.js';
import { CHANNEL_NAMES } from '../../../src-main/api/contract.js';
import { loadWindowState, saveWindowState, DEFAULT_WINDOW_STATE } from '../../../src-main/electron/window-state.js';
import type { Dispatch } from '../../../src-main/app/dispatch.js';
import { createAppCore } from '../../../src-main/app/app-core.js';
import { tempDir } from '../../helpers/cli.js';

const APP_URL = 'app://renderer/index.html';
const top = (url: string) => ({ senderFrame: { url, parent: null } });

describe('IPC sender checks', () => {
  it('trusts only the top frame of the app page', () => {
    expect(isTrustedSender(top(APP_URL), APP_URL)).toBe(true);
    expect(isTrustedSender(top(`${APP_URL}#/plans`), APP_URL)).toBe(true);
    expect(isTrustedSender(top('https://evil.example/index.html'), APP_URL)).toBe(false);
    expect(isTrustedSender(top('file:///tmp/other.html'), APP_URL)).toBe(false);
    expect(isTrustedSender(top('app://renderer/other.html'), APP_URL)).toBe(false);
    expect(isTrustedSender(top('app://evil/index.html'), APP_URL)).toBe(false);
    expect(isTrustedSender({ senderFrame: { url: APP_URL, parent: {} } }, APP_URL)).toBe(false);
    expect(isTrustedSender({ senderFrame: null }, APP_URL)).toBe(false);
    expect(isTrustedSender(top('not a url'), APP_URL)).toBe(false);
  });

  it('registers one handler per channel, refusing foreign senders before the dispatch', async () => {
    const calls: string[] = [];
    const dispatch: Dispatch = async (channel) => {
      calls.push(channel);
      return { ok: true, value: null };
    };
    const handlers = ipcHandlers(dispatch, APP_URL);
    expect([...handlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());
    const h = handlers.get('machine:list');
    expect(await h?.(top('https://evil.example/'), {})).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(calls).toEqual([]);
    expect(await h?.(top(APP_URL), {})).toEqual({ ok: true, value: null });
    expect(calls).toEqual(['machine:list']);
  });

  it('refuses invalid payloads through the real dispatch', async () => {
    const dir = tempDir('pdjv-ipc-');
    const core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'electron', inProcessJobs: true });
    try {
      const handlers = ipcHandlers(core.dispatch, APP_URL);
      const cases: [string, unknown][] = [
        ['profile:start', { device: '../../etc', suite: 'quick' }],
        ['profile:start', { device: 'cpu', suite: 'everything' }],
        ['machine:import', { fileName: 'x.json' }],
        ['plan:create', { workload: 'gpt2-small', devices: 'all', mode: 'inference', batch: -1 }],
        ['workload:add', { fileName: 'm.onnx', path: '/x.onnx', dataBase64: 'AA==' }],
        ['job:cancel', 'everything'],
        ['machine:list', { __proto__: { polluted: true }, extra: 1 }],
      ];
      for (const [channel, payload] of cases) {
        const r = await handlers.get(channel as (typeof CHANNEL_NAMES)[number])?.(top(APP_URL), payload);
        expect(r, channel).toMatchObject({ ok: false, error: { code: 'invalid' } });
      }
    } finally {
      core.close();
    }
  });
});

describe('window state', () => {
  it('remembers bounds and falls back to the default on a bad file', () => {
    const dir = tempDir('pdjv-win-');
    const file = path.join(dir, 'window-state.json');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
    saveWindowState(file, { x: 10, y: 20, width: 1400, height: 900, maximized: false });
    expect(loadWindowState(file)).toEqual({ x: 10, y: 20, width: 1400, height: 900, maximized: false });
    writeFileSync(file, '{garbage');
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(file, JSON.stringify({ width: 5, height: 5, maximized: false }));
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
  });
});
