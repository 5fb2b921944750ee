/** Process entry of the CLI: real streams, real environment, exit code. */
import { runCli } from './main.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  isTty: Boolean(process.stderr.isTTY),
});
process.exitCode = code;
