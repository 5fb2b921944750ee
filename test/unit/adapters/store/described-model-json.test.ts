/** A Hugging Face model's description as the workloads table keeps it, read back. */
import { describe, expect, it } from 'vitest';
import { describedFromJson, describedToJson } from '../../../../src-main/adapters/store/described-model-json.js';
import { hfConfigDecoder } from '../../../../src-main/core/catalog/hf-config.js';
import { LLAMA_31_8B } from '../../../helpers/hf-configs.js';

describe('describedFromJson', () => {
  it('reads a description back with its default sequence by today’s rule, one stored under an older rule too', () => {
    const { entry } = hfConfigDecoder(LLAMA_31_8B, 'config.json', 'Llama-3.1-8B');
    const stored = { entry, weights: null, params: 1, stored: null, warnings: [] };
    expect(describedFromJson(describedToJson(stored))).toEqual(stored);
    const older = { ...stored, entry: { ...entry, defaults: { ...entry.defaults, seq: 4096 } } };
    expect(describedFromJson(describedToJson(older))?.entry.defaults.seq).toBe(8192);
    expect(describedFromJson('{')).toBeNull();
  });
});
