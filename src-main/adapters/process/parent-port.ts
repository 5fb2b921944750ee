/**
 * The child's side: how a runner script talks to whoever started it. A forked Node child
 * has process.send and the 'message' event; an Electron utility process has
 * process.parentPort (postMessage, and 'message' events carrying `data`). Messages tagged
 * RELAY belong to the relay (relay.ts), not to the script.
 */
export const RELAY = '__pipedejavuRelay';

export interface ParentPortLike {
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/** process.parentPort inside an Electron utility process, else null. */
export function parentPortOf(p: NodeJS.Process = process): ParentPortLike | null {
  return (p as unknown as { parentPort?: ParentPortLike }).parentPort ?? null;
}

export function relayPayload(m: unknown): unknown {
  return typeof m === 'object' && m !== null && RELAY in m ? (m as Record<string, unknown>)[RELAY] : undefined;
}

export interface ParentChannel<In, Out> {
  send(m: Out): void;
  /** Resolves once the message has left this process (a forked child's send callback). */
  sendLast(m: Out): Promise<void>;
  onMessage(listener: (m: In) => void): void;
  /**
   * Done talking. A forked child disconnects and exits once idle; a utility process does
   * not exit when idle, so its parent ends it after the last message.
   */
  end(): void;
}

export function parentChannel<In, Out>(p: NodeJS.Process = process): ParentChannel<In, Out> {
  const port = parentPortOf(p);
  if (port) {
    return {
      send: (m) => port.postMessage(m),
      sendLast: (m) => {
        port.postMessage(m);
        return Promise.resolve();
      },
      onMessage: (listener) =>
        port.on('message', (e) => {
          if (relayPayload(e.data) === undefined) listener(e.data as In);
        }),
      end: () => undefined,
    };
  }
  return {
    send: (m) => {
      p.send?.(m);
    },
    sendLast: (m) =>
      new Promise((resolve) => {
        if (!p.send || !p.connected) resolve();
        else p.send(m, undefined, {}, () => resolve());
      }),
    onMessage: (listener) => {
      p.on('message', (m: In) => listener(m));
    },
    end: () => {
      if (p.connected) p.disconnect?.();
    },
  };
}
