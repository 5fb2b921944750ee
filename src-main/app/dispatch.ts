/**
 * The one entry every transport calls: channel name and raw payload in, a result out.
 * Unknown channels and payloads that fail the channel's schema never reach a handler;
 * a handler's exception becomes one error line, never a throw across the boundary.
 */
import { CHANNELS, isChannelName, type ChannelName } from '../api/contract.js';
import { fail, ok, type ApiResult } from '../api/result.js';
import { errorMessage, UserError } from '../core/errors.js';
import { StoreError, environmentFailure } from '../adapters/store/errors.js';
import type { AppDeps } from './app-deps.js';
import { HANDLERS } from './handlers/index.js';
import type { Handler } from './handlers/types.js';
import { UnavailableError } from './handlers/unavailable.js';

export type Dispatch = (channel: string, payload: unknown) => Promise<ApiResult<unknown>>;

export function createDispatch(
  deps: AppDeps,
  onInternalError: (channel: string, e: unknown) => void = () => {},
): Dispatch {
  return async (channel, payload) => {
    if (!isChannelName(channel)) return fail('not-found', `unknown channel "${channel.slice(0, 100)}"`);
    const parsed = CHANNELS[channel].request.safeParse(payload ?? {});
    if (!parsed.success) return fail('invalid', `${channel}: ${errorMessage(parsed.error)}`);
    try {
      const handler = HANDLERS[channel] as Handler<ChannelName>;
      return ok(await handler(parsed.data as never, deps));
    } catch (e) {
      if (e instanceof UnavailableError) return fail('unavailable', e.message);
      if (e instanceof UserError || e instanceof StoreError) return fail('user', errorMessage(e));
      const env = environmentFailure(e, deps.dbPath);
      if (env) return fail('user', env);
      onInternalError(channel, e);
      return fail('internal', `internal error in ${channel}: ${errorMessage(e)}`);
    }
  };
}
