/**
 * The renderer's typed client, over either transport: the Electron preload bridge or
 * HTTP (web mode). `call` resolves with the channel's response or rejects with an
 * ApiCallError carrying the server's one-line message. Pure (the transports are given).
 */
import type { ApiResult, ApiErrorCode } from './result.js';
import type { ApiRequest, ApiResponse, ChannelName, JobEvent } from './contract.js';

export interface Transport {
  readonly kind: 'electron' | 'http';
  invoke(channel: ChannelName, payload: unknown): Promise<ApiResult<unknown>>;
  /** Job events as they happen; returns the unsubscribe function. */
  subscribe(listener: (e: JobEvent) => void): () => void;
  /** Web mode: sends a file's bytes to the server, answers its upload id (results, never throws). */
  upload?(data: Blob): Promise<ApiResult<{ uploadId: string }>>;
}

export class ApiCallError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly channel: ChannelName,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export interface ApiClient {
  readonly transport: Transport['kind'];
  call<C extends ChannelName>(channel: C, request: ApiRequest<C>): Promise<ApiResponse<C>>;
  onJobEvent(listener: (e: JobEvent) => void): () => void;
  /** Web mode only: a file's bytes to the server; the upload id the channels take. */
  upload(data: Blob): Promise<string>;
}

export function createApiClient(transport: Transport): ApiClient {
  return {
    transport: transport.kind,
    async call(channel, request) {
      const r = await transport.invoke(channel, request);
      if (!r.ok) throw new ApiCallError(r.error.code, r.error.message, channel);
      return r.value as ApiResponse<typeof channel>;
    },
    onJobEvent: (listener) => transport.subscribe(listener),
    async upload(data) {
      if (!transport.upload) throw new ApiCallError('invalid', 'uploads are for the web app', 'machine:import');
      const r = await transport.upload(data);
      if (!r.ok) throw new ApiCallError(r.error.code, r.error.message, 'machine:import');
      return r.value.uploadId;
    },
  };
}

/** HTTP transport names: where each channel is posted, and the event stream. */
export const HTTP_API_PREFIX = '/api/';
export const HTTP_EVENTS_PATH = '/api/events';
export const HTTP_TOKEN_HEADER = 'x-pipedejavu-token';
/** Raw file bytes (application/octet-stream) in, `{ uploadId }` out: how the browser sends files. */
export const HTTP_UPLOAD_PATH = '/api/upload';

export function channelPath(channel: ChannelName): string {
  return `${HTTP_API_PREFIX}${channel}`;
}
