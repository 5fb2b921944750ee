/**
 * The database handle the store works on. Services and repositories receive it; only
 * `openDatabase` creates one.
 */
import type BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;
