import { writeFileSync } from 'node:fs';
import { profileJsonSchema, SCHEMA_FILE } from './json-schema.js';

writeFileSync(SCHEMA_FILE, profileJsonSchema());
console.log(`wrote ${SCHEMA_FILE}`);
