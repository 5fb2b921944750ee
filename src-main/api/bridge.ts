/**
 * The Electron preload bridge as the renderer sees it (`window.pipedejavu`): the typed
 * API and nothing else, no ipcRenderer. Pure.
 */
import type { ApiResult } from './result.js';
import type { ChannelName, JobEvent } from './contract.js';
import type { Transport } from './client.js';

export const BRIDGE_KEY = 'pipedejavu';

export interface PreloadBridge {
  invoke(channel: ChannelName, payload: unknown): Promise<ApiResult<unknown>>;
  onJobEvent(listener: (e: JobEvent) => void): () => void;
  /** The native menu's Go entries (view names: workstation, profile, ...). */
  onMenuNavigate(listener: (view: string) => void): () => void;
}

export function bridgeTransport(bridge: PreloadBridge): Transport {
  return {
    kind: 'electron',
    invoke: (channel, payload) => bridge.invoke(channel, payload),
    subscribe: (listener) => bridge.onJobEvent(listener),
  };
}
