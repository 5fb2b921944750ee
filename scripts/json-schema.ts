/** The JSON Schema of the hardware-profile file, generated from the zod schema. */
import { z } from 'zod';
import { PROFILE_FORMAT_VERSION, ProfileFileSchema } from '../src-main/core/profile-file/schema.js';

export const SCHEMA_FILE = `schemas/hardware-profile.v${PROFILE_FORMAT_VERSION}.schema.json`;

export function profileJsonSchema(): string {
  const schema = z.toJSONSchema(ProfileFileSchema, { target: 'draft-2020-12', unrepresentable: 'any' });
  const doc = {
    ...schema,
    $id: `https://pipedejavu.dev/${SCHEMA_FILE}`,
    title: 'pipeDejavu hardware profile',
    description:
      'One machine: its probe (CPU, memory, OS, NVIDIA GPUs and topology), devices, links, profile runs, measurements and trained predictors, with provenance. Written by `pipedejavu export`, read by `pipedejavu import`.',
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
