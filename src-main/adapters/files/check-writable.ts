/**
 * Before a long run whose result goes to a file the user named: can that file be written?
 * Says why not in one line (its directory missing or not a directory or not writable, the
 * file itself a directory), so that minutes of measuring are not lost to a typo. The file
 * is written afterwards with writeFileAtomic (a temporary sibling, then a rename).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, realpathSync, rmSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../core/errors.js';

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

/** Throws a one-line UserError unless `file` can be created or replaced; returns its absolute path. */
export function checkWritableFile(file: string): string {
  const abs = path.resolve(file);
  const target = statOrNull(abs);
  if (target?.isDirectory()) throw new UserError(`cannot write ${file}: it is a directory`);
  // A symlink is written through: its target's directory is the one that matters.
  let landing = abs;
  try {
    landing = realpathSync(abs);
  } catch {
    // not there yet (or a dangling link): its own directory
  }
  const dir = path.dirname(landing);
  const dirStat = statOrNull(dir);
  if (!dirStat) throw new UserError(`cannot write ${file}: its directory ${dir} does not exist`);
  if (!dirStat.isDirectory()) throw new UserError(`cannot write ${file}: ${dir} is not a directory`);
  // Permission bits say little (root ignores them; a read-only mount or chattr +i does not):
  // create and remove a probe file where the temporary sibling will go.
  const probe = path.join(dir, `.${path.basename(landing)}.${randomBytes(8).toString('hex')}.probe`);
  try {
    closeSync(openSync(probe, 'wx', 0o600));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`cannot write ${file}: its directory ${dir} is not writable${code ? ` (${code})` : ''}`);
  }
  rmSync(probe, { force: true });
  return abs;
}
