/** Process entry of the CLI: real streams, real environment, exit code. */
import { isatty } from 'node:tty';
import { runCli } from './main.js';

// A reader that went away (`pipedejavu ... | head`): stop quietly with the shell's SIGPIPE status
// instead of a stack trace; what it wanted has been read.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(141);
    throw e;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  isTty: Boolean(process.stderr.isTTY),
  ...(isatty(0) ? {} : { stdin: () => process.stdin }),
});
process.exitCode = code;
