export { openDatabase, type OpenDatabaseOptions } from './open-database.js';
export {
  migrate,
  MIGRATIONS,
  LATEST_SCHEMA_VERSION,
  APPLICATION_ID,
  type Migration,
  type MigrateOptions,
} from './migrations.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export type { Database } from './types.js';
export * from './machine-repo.js';
export * from './profile-repo.js';
