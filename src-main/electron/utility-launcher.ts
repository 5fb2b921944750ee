/**
 * The Electron side of the process launcher: the job and kernel runners run as utility
 * processes (the RunAsNode fuse is off, so the app's binary never runs as a plain Node
 * interpreter). A utility process cannot start one itself, so the job runner's kernel
 * runner is started here on its behalf (withRelay), for the app's runner scripts only.
 */
import { utilityProcess } from 'electron';
import { ChildEmitter, type ProcessLauncher } from '../adapters/process/launcher.js';
import { withRelay } from '../adapters/process/relay.js';

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

const utilityProcesses: ProcessLauncher = {
  fork(modulePath, o) {
    const events = new ChildEmitter();
    const child = utilityProcess.fork(modulePath, [], {
      serviceName: o.name,
      // stdin must stay 'ignore'; stderr feeds the one-line reasons a crash is reported with.
      stdio: ['ignore', 'ignore', 'pipe'],
      env: definedOnly(o.env ?? process.env),
      ...(o.execArgv ? { execArgv: o.execArgv } : {}),
    });
    let exited = false;
    let killed = false;
    child.stderr?.on('data', (d: Buffer) => events.emit('stderr', d.toString()));
    child.on('message', (m: unknown) => events.emit('message', m));
    child.on('error', (type, location) => events.emit('stderr', `${type} at ${location}\n`));
    child.on('exit', (code) => {
      exited = true;
      events.emit('exit', code, killed ? 'SIGKILL' : null);
    });
    return {
      send(message) {
        if (!exited) child.postMessage(message);
      },
      kill() {
        if (exited) return;
        killed = true;
        // utilityProcess.kill() sends SIGTERM; a kernel stuck in a native call must go at once.
        const pid = child.pid;
        try {
          if (pid !== undefined) process.kill(pid, 'SIGKILL');
          else child.kill();
        } catch {
          child.kill();
        }
      },
      on: (event, listener) => events.on(event, listener),
      off: (event, listener) => events.off(event, listener),
    };
  },
};

/** Utility processes that may start the `runners` (absolute paths) for one another. */
export function utilityLauncher(runners: readonly string[]): ProcessLauncher {
  return withRelay(utilityProcesses, runners);
}
