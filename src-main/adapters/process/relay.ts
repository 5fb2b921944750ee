/**
 * Grandchildren through the parent. An Electron utility process cannot start another
 * Node process itself (the Electron binary does not run as Node, and utilityProcess is a
 * main-process API), so the job runner asks its parent to start the kernel runner for it
 * and to pass messages, stderr, kills and the exit along. The parent side (withRelay)
 * starts only the scripts it was told to allow, and kills a child's grandchildren when
 * the child ends.
 */
import path from 'node:path';
import {
  ChildEmitter,
  childProcessLauncher,
  type LaunchedChild,
  type LaunchOptions,
  type ProcessLauncher,
} from './launcher.js';
import { parentPortOf, RELAY, relayPayload, type ParentPortLike } from './parent-port.js';

/** Child to parent. */
type RelayRequest =
  | { op: 'fork'; id: number; modulePath: string; options: LaunchOptions }
  | { op: 'send'; id: number; message: unknown }
  | { op: 'kill'; id: number };

/** Parent to child. */
type RelayEvent =
  | { op: 'message'; id: number; message: unknown }
  | { op: 'stderr'; id: number; text: string }
  | { op: 'exit'; id: number; code: number | null; signal: string | null }
  | { op: 'error'; id: number; message: string };

const tag = (m: RelayRequest | RelayEvent): Record<string, unknown> => ({ [RELAY]: m });

function asRequest(v: unknown): RelayRequest | null {
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Partial<Record<string, unknown>>;
  if (typeof r.id !== 'number') return null;
  if (r.op === 'fork' && typeof r.modulePath === 'string' && typeof r.options === 'object' && r.options !== null)
    return v as RelayRequest;
  if (r.op === 'send' || r.op === 'kill') return v as RelayRequest;
  return null;
}

/** The child's launcher: every fork, message and kill goes through the parent port. */
function relayLauncher(port: ParentPortLike): ProcessLauncher {
  const children = new Map<number, ChildEmitter>();
  let nextId = 1;
  port.on('message', (e) => {
    const ev = relayPayload(e.data) as RelayEvent | undefined;
    if (!ev || typeof ev !== 'object') return;
    const child = children.get(ev.id);
    if (!child) return;
    if (ev.op === 'message') child.emit('message', ev.message);
    else if (ev.op === 'stderr') child.emit('stderr', ev.text);
    else if (ev.op === 'error') child.emit('error', new Error(ev.message));
    else if (ev.op === 'exit') {
      children.delete(ev.id);
      child.emit('exit', ev.code, ev.signal);
    }
  });
  return {
    fork(modulePath, options) {
      const id = nextId++;
      const events = new ChildEmitter();
      children.set(id, events);
      port.postMessage(tag({ op: 'fork', id, modulePath: path.resolve(modulePath), options }));
      return {
        send(message) {
          if (children.has(id)) port.postMessage(tag({ op: 'send', id, message }));
        },
        kill() {
          if (children.has(id)) port.postMessage(tag({ op: 'kill', id }));
        },
        on: (event, listener) => events.on(event, listener),
        off: (event, listener) => events.off(event, listener),
      };
    },
  };
}

/**
 * The parent's side: children of `base` whose relay requests are served by this same
 * launcher, for `allowed` scripts only. Relay traffic never reaches the child's listeners.
 */
export function withRelay(base: ProcessLauncher, allowed: readonly string[]): ProcessLauncher {
  const allow = new Set(allowed.map((p) => path.resolve(p)));
  const launcher: ProcessLauncher = {
    fork(modulePath, options) {
      const child = base.fork(modulePath, options);
      const events = new ChildEmitter();
      const grandchildren = new Map<number, LaunchedChild>();
      const answer = (ev: RelayEvent): void => child.send(tag(ev));
      const serve = (req: RelayRequest): void => {
        if (req.op === 'send') grandchildren.get(req.id)?.send(req.message);
        else if (req.op === 'kill') grandchildren.get(req.id)?.kill();
        else if (!allow.has(path.resolve(req.modulePath))) {
          answer({
            op: 'stderr',
            id: req.id,
            text: `refused to start ${req.modulePath}: not one of the app's runners\n`,
          });
          answer({ op: 'exit', id: req.id, code: 1, signal: null });
        } else {
          const { id } = req;
          const g = launcher.fork(req.modulePath, { ...req.options, name: String(req.options.name) });
          grandchildren.set(id, g);
          g.on('message', (message) => answer({ op: 'message', id, message }));
          g.on('stderr', (text) => answer({ op: 'stderr', id, text }));
          g.on('error', (e) => answer({ op: 'error', id, message: e.message }));
          g.on('exit', (code, signal) => {
            grandchildren.delete(id);
            answer({ op: 'exit', id, code, signal });
          });
        }
      };
      child.on('message', (m) => {
        const payload = relayPayload(m);
        if (payload === undefined) events.emit('message', m);
        else {
          const req = asRequest(payload);
          if (req) serve(req);
        }
      });
      child.on('stderr', (text) => events.emit('stderr', text));
      child.on('error', (e) => events.emit('error', e));
      child.on('exit', (code, signal) => {
        for (const g of grandchildren.values()) g.kill();
        grandchildren.clear();
        events.emit('exit', code, signal);
      });
      return {
        send: (message) => child.send(message),
        kill: () => child.kill(),
        on: (event, listener) => events.on(event, listener),
        off: (event, listener) => events.off(event, listener),
      };
    },
  };
  return launcher;
}

let fromParentPort: ProcessLauncher | null = null;

/**
 * Where a runner starts its own children: through the parent inside a utility process
 * (one relay per process), else a plain fork.
 */
export function defaultLauncher(): ProcessLauncher {
  const port = parentPortOf();
  if (!port) return childProcessLauncher;
  fromParentPort ??= relayLauncher(port);
  return fromParentPort;
}
