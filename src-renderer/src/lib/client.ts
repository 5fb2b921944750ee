/**
 * The API client for this window: the Electron preload bridge when present, else HTTP to
 * the server that served the page, with the session token from the address bar.
 */
import { createApiClient, type ApiClient, type Transport } from '../../../src-main/api/client.js';
import { BRIDGE_KEY, bridgeTransport, type PreloadBridge } from '../../../src-main/api/bridge.js';
import { httpTransport } from '../../../src-main/api/http-transport.js';
import { takeToken, TOKEN_STORAGE_KEY } from './token.js';

/**
 * The DOM's EventSource in the shape httpTransport asks for (its `onmessage` receives only
 * `{ data }`; the DOM's handler type is wider, so it is not assignable directly).
 */
class EventSourceAdapter {
  onmessage: ((ev: { data: string }) => void) | null = null;
  readonly #source: EventSource;

  constructor(url: string) {
    this.#source = new EventSource(url);
    this.#source.onmessage = (ev: MessageEvent<unknown>) => {
      if (typeof ev.data === 'string') this.onmessage?.({ data: ev.data });
    };
  }

  close(): void {
    this.#source.close();
  }
}

export type ClientSetup = { ok: true; client: ApiClient } | { ok: false; reason: string };

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function createClient(): ClientSetup {
  const bridge = (window as unknown as Record<string, PreloadBridge | undefined>)[BRIDGE_KEY];
  if (bridge) return { ok: true, client: createApiClient(bridgeTransport(bridge)) };

  const store = storage();
  const t = takeToken(window.location.search, store?.getItem(TOKEN_STORAGE_KEY) ?? null);
  if (t.fromQuery) {
    const url = `${window.location.pathname}${t.search}${window.location.hash}`;
    window.history.replaceState(window.history.state, '', url);
  }
  if (!t.token) {
    return {
      ok: false,
      reason:
        'This page needs the session token. Open the address that `pipedejavu serve` printed (it ends in ?token=...).',
    };
  }
  store?.setItem(TOKEN_STORAGE_KEY, t.token);
  const http = httpTransport({
    baseUrl: window.location.origin,
    token: t.token,
    fetch: window.fetch.bind(window),
    EventSource: EventSourceAdapter,
  });
  // A stale token (the server was restarted) is forgotten, so a reload asks for the new address.
  const transport: Transport = {
    ...http,
    async invoke(channel, payload) {
      const r = await http.invoke(channel, payload);
      if (!r.ok && r.error.code === 'unauthorized') store?.removeItem(TOKEN_STORAGE_KEY);
      return r;
    },
  };
  return { ok: true, client: createApiClient(transport) };
}
