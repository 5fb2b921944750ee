#!/usr/bin/env node
// The `pipedejavu` command. `npm ci` builds dist/ (the prepare script).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('pipedejavu: error: not built yet; run `npm run build` in the project directory\n');
  process.exit(1);
}
await import(cli.href);
