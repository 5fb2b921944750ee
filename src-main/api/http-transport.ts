/**
 * The web-mode transport, for browsers: POST /api/<channel> with the session token in a
 * header, job events over server-sent events (EventSource cannot set headers, so the
 * token travels in its query). Uses only `fetch` and `EventSource`, given by the caller.
 */
import { ApiResultEnvelopeSchema, type ApiResult } from './result.js';
import { channelPath, HTTP_EVENTS_PATH, HTTP_TOKEN_HEADER, HTTP_UPLOAD_PATH, type Transport } from './client.js';
import type { JobEvent } from './contract.js';

export interface HttpTransportOptions {
  baseUrl: string;
  token: string;
  fetch: typeof globalThis.fetch;
  /** EventSource constructor (absent in Node tests: events are then not delivered). */
  EventSource?: new (url: string) => {
    onmessage: ((ev: { data: string }) => void) | null;
    close(): void;
  };
}

export function httpTransport(o: HttpTransportOptions): Transport {
  const listeners = new Set<(e: JobEvent) => void>();
  let source: { close(): void } | null = null;
  const ensureSource = (): void => {
    if (source || !o.EventSource) return;
    const es = new o.EventSource(`${o.baseUrl}${HTTP_EVENTS_PATH}?token=${encodeURIComponent(o.token)}`);
    es.onmessage = (ev) => {
      let e: JobEvent;
      try {
        e = JSON.parse(ev.data) as JobEvent;
      } catch {
        return;
      }
      for (const l of listeners) l(e);
    };
    source = es;
  };
  return {
    kind: 'http',
    async invoke(channel, payload): Promise<ApiResult<unknown>> {
      let res: Response;
      try {
        res = await o.fetch(`${o.baseUrl}${channelPath(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [HTTP_TOKEN_HEADER]: o.token },
          body: JSON.stringify(payload ?? {}),
        });
      } catch (e) {
        return {
          ok: false,
          error: { code: 'unavailable', message: `the pipeDejavu server cannot be reached (${String(e)})` },
        };
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        return { ok: false, error: { code: 'internal', message: `the server answered ${res.status} without JSON` } };
      }
      const parsed = ApiResultEnvelopeSchema.safeParse(body);
      if (!parsed.success) {
        return {
          ok: false,
          error: { code: 'internal', message: `the server answered ${res.status} in an unknown shape` },
        };
      }
      return parsed.data as ApiResult<unknown>;
    },
    async upload(data) {
      let res: Response;
      try {
        res = await o.fetch(`${o.baseUrl}${HTTP_UPLOAD_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', [HTTP_TOKEN_HEADER]: o.token },
          body: data,
        });
        const body = (await res.json()) as ApiResult<{ uploadId: string }>;
        return body;
      } catch (e) {
        return {
          ok: false,
          error: { code: 'unavailable', message: `the upload did not reach the server (${String(e)})` },
        };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      ensureSource();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
  };
}
