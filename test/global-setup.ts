/** Builds dist/ once before the tests: the kernel runner and the CLI run as real processes. */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
