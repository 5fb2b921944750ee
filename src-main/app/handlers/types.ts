import type { z } from 'zod';
import type { ApiResponse, ChannelName, Channels } from '../../api/contract.js';
import type { AppDeps } from '../app-deps.js';

/** A handler gets its channel's validated request; it may throw (dispatch turns that into an error result). */
export type Handler<C extends ChannelName> = (
  request: z.output<Channels[C]['request']>,
  deps: AppDeps,
) => Promise<ApiResponse<C>> | ApiResponse<C>;

export type HandlerGroup<C extends ChannelName> = { [K in C]: Handler<K> };
