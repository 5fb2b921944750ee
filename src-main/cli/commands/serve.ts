import { randomBytes } from 'node:crypto';
import { quoted, shown } from '../../core/text/shown.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { createAppCore } from '../../app/app-core.js';
import { startServer } from '../../http/server.js';
import { createUploadStore } from '../../adapters/files/upload-store.js';
import { defaultRendererDir } from '../../adapters/web/renderer-files.js';
import type { Command } from '../command.js';

/** Resolves on the first Ctrl-C or SIGTERM. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (sig: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(sig);
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the app to a browser on 127.0.0.1 (headless servers: open it through an SSH tunnel)',
  usage: '[--port N]',
  details:
    'Prints the URL, with its session token, as the first line of output; only requests that carry\n' +
    'the token are answered, only on 127.0.0.1, only from this origin. Ctrl-C stops the server and\n' +
    'any job it is running (a profile keeps what it finished).\n' +
    'From another computer: ssh -L 8765:127.0.0.1:8765 gpu-server, run `pipedejavu serve --port 8765`\n' +
    'there, and open the printed URL here.',
  options: {
    port: { type: 'string', valueName: 'N', description: 'port on 127.0.0.1 (default 8765; 0 picks a free one)' },
  },
  async run(ctx, opts) {
    const port = typeof opts.port === 'string' ? Number(opts.port) : 8765;
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port takes 0 to 65535; got ${quoted(opts.port)}`);
    const rendererDir = ctx.io.env.PIPEDEJAVU_RENDERER_DIR ?? defaultRendererDir();
    const uploads = createUploadStore();
    const core = createAppCore({
      uploads,
      dbPath: ctx.dbPath,
      env: ctx.io.env,
      transport: 'http',
      onInternalError: (channel, e) =>
        ctx.io.stderr(`${shown(`pipedejavu serve: internal error in ${channel}: ${String(e)}`)}\n`),
    });
    const token = randomBytes(24).toString('base64url');
    let server;
    try {
      server = await startServer({
        dispatch: core.dispatch,
        uploads,
        subscribe: (l) => core.jobs.subscribe(l),
        token,
        rendererDir,
        port,
      });
    } catch (e) {
      core.close();
      uploads.close();
      const code = (e as { code?: string }).code;
      if (code === 'EADDRINUSE')
        throw new UsageError(`port ${port} is in use; pick another with --port (0 = any free)`);
      throw e;
    }
    ctx.print(server.url);
    ctx.io.stderr(
      `pipeDejavu is served at the URL above (database ${shown(path.resolve(ctx.dbPath))}).` +
        `${existsSync(path.join(rendererDir, 'index.html')) ? '' : ` The app is not built: run npm run build.`} Ctrl-C stops it.\n`,
    );
    const sig = await untilSignal();
    ctx.io.stderr(`stopping (${sig})...\n`);
    core.jobs.cancelAll();
    await server.close();
    core.close();
    uploads.close();
  },
};
