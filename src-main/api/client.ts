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
  };
}

/** HTTP transport names: where each channel is posted, and the event stream. */
export const HTTP_API_PREFIX = '/api/';
export const HTTP_EVENTS_PATH = '/api/events';
export const HTTP_TOKEN_HEADER = 'x-pipedejavu-token';

export function channelPath(channel: ChannelName): string {
  return `${HTTP_API_PREFIX}${channel}`;
}
