/**
 * Every write transaction of the store starts with BEGIN IMMEDIATE. A deferred one
 * reads first and upgrades to a write later; in WAL mode SQLite answers that upgrade
 * with SQLITE_BUSY at once when another connection wrote in between, and the busy
 * timeout never applies. BEGIN IMMEDIATE takes the write lock up front, so a second
 * writer waits (up to the busy timeout) instead of failing. Nested calls become
 * savepoints of the outer transaction.
 */
import type { Database } from './types.js';

export function writeTransaction<T>(db: Database, fn: () => T): T {
  return db.transaction(fn).immediate();
}
