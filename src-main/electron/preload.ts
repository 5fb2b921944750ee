/**
 * The preload bridge (sandboxed, CommonJS): exposes exactly the typed API as
 * `window.pipedejavu`, never ipcRenderer itself. Unknown channels are refused here too.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isChannelName, JOB_EVENT_CHANNEL } from '../api/channel-names.js';
import type { JobEvent } from '../api/contract.js';
import { BRIDGE_KEY, type PreloadBridge } from '../api/bridge.js';
import type { ApiResult } from '../api/result.js';
import { MENU_NAVIGATE } from './menu-channel.js';

const bridge: PreloadBridge = {
  invoke(channel, payload): Promise<ApiResult<unknown>> {
    if (typeof channel !== 'string' || !isChannelName(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'not-found', message: `unknown channel` } });
    }
    return ipcRenderer.invoke(channel, payload) as Promise<ApiResult<unknown>>;
  },
  onJobEvent(listener) {
    const wrapped = (_e: IpcRendererEvent, event: JobEvent): void => listener(event);
    ipcRenderer.on(JOB_EVENT_CHANNEL, wrapped);
    return () => {
      ipcRenderer.off(JOB_EVENT_CHANNEL, wrapped);
    };
  },
  onMenuNavigate(listener) {
    const wrapped = (_e: IpcRendererEvent, view: unknown): void => {
      if (typeof view === 'string') listener(view);
    };
    ipcRenderer.on(MENU_NAVIGATE, wrapped);
    return () => {
      ipcRenderer.off(MENU_NAVIGATE, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld(BRIDGE_KEY, bridge);
