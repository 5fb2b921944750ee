/**
 * Makes a file or folder read-only for real, even for root (tests here often run as root,
 * which ignores permission bits): `chattr +i` as root, chmod otherwise. Returns the undo,
 * or a reason the machine cannot do it (no chattr, a file system without attributes).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';

export function makeReadOnly(target: string): { undo: () => void } | { unavailable: string } {
  if (process.platform === 'win32') return { unavailable: 'no read-only files for this test on Windows' };
  if (process.getuid?.() !== 0) {
    const mode = statSync(target).mode & 0o777;
    chmodSync(target, statSync(target).isDirectory() ? 0o555 : 0o444);
    return { undo: () => chmodSync(target, mode) };
  }
  try {
    execFileSync('chattr', ['+i', target], { stdio: 'ignore' });
  } catch {
    return { unavailable: 'running as root, and chattr +i is not available here (root ignores chmod)' };
  }
  return { undo: () => execFileSync('chattr', ['-i', target], { stdio: 'ignore' }) };
}
