/**
 * IPC on the main side: one handler per contract channel, each checking that the
 * message comes from our own top frame (the renderer's file:// page) before the payload
 * goes to the dispatch, which validates it against the channel's schema. No Electron
 * import here, so it is tested without the binary.
 */
import { CHANNEL_NAMES, type ChannelName } from '../api/contract.js';
import { fail, type ApiResult } from '../api/result.js';
import type { Dispatch } from '../app/dispatch.js';

/** What the handler needs of an IpcMainInvokeEvent. */
export interface IpcEventLike {
  senderFrame: { url: string; parent: unknown } | null;
}

/** Only the top frame of the app's own page may call the API. */
export function isTrustedSender(event: IpcEventLike, rendererUrl: string): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent) return false;
  try {
    const a = new URL(frame.url);
    const b = new URL(rendererUrl);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

export type IpcHandler = (event: IpcEventLike, payload: unknown) => Promise<ApiResult<unknown>>;

export function ipcHandlers(dispatch: Dispatch, rendererUrl: string): Map<ChannelName, IpcHandler> {
  const handlers = new Map<ChannelName, IpcHandler>();
  for (const channel of CHANNEL_NAMES) {
    handlers.set(channel, async (event, payload) => {
      if (!isTrustedSender(event, rendererUrl)) return fail('invalid', `refused ${channel}: unknown sender`);
      return dispatch(channel, payload);
    });
  }
  return handlers;
}
