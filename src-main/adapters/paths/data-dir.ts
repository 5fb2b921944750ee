/**
 * Where pipeDejavu keeps its database: --db, else PIPEDEJAVU_DB, else the user's data
 * directory (XDG on Linux, Application Support on macOS, %APPDATA% on Windows).
 * The Electron app passes its userData directory instead.
 */
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';

const DB_ENV = 'PIPEDEJAVU_DB';
export const DB_FILE = 'pipedejavu.db';

function userDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'pipedejavu');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'pipedejavu');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'pipedejavu');
}

export function resolveDbPath(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  // An empty --db is a mistake (an unset variable in a script), never "the default database".
  if (explicit !== undefined && explicit.trim() === '') {
    throw new UsageError('--db is empty; give a database file (or leave --db out for the default one)');
  }
  if (explicit) return explicit;
  if (env[DB_ENV]) return env[DB_ENV] as string;
  return path.join(userDataDir(env), DB_FILE);
}
