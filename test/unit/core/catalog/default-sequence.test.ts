/**
 * One rule for the sequence a text model is built at when none is asked: a catalog model, the same
 * model's config.json and its GGUF header give one length.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEQUENCE_CAP,
  DEFAULT_SEQUENCE_TEXT,
  defaultSequence,
} from '../../../../src-main/core/catalog/default-sequence.js';
import { hfConfigDecoder } from '../../../../src-main/core/catalog/hf-config.js';
import { CATALOG } from '../../../../src-main/core/catalog/entries.js';
import { catalogWorkload, entryWorkload, type CatalogEntry } from '../../../../src-main/core/catalog/index.js';
import { LLAMA_31_8B, MISTRAL_7B_V03 } from '../../../helpers/hf-configs.js';

const seqOf = (e: CatalogEntry): number | undefined => entryWorkload(e).bindings.seq;

describe('the default sequence', () => {
  it('is the context capped at 8,192 tokens for a decoder and at 128 for an encoder, and says so', () => {
    expect(DEFAULT_SEQUENCE_CAP).toEqual({ decoder: 8192, encoder: 128 });
    expect(defaultSequence(131072, true)).toBe(8192);
    expect(defaultSequence(1024, true)).toBe(1024);
    expect(defaultSequence(512, false)).toBe(128);
    expect(defaultSequence(64, false)).toBe(64);
    expect(DEFAULT_SEQUENCE_TEXT).toBe(
      "the model's context (max_position_embeddings), at most 8,192 tokens for a decoder and 128 for an encoder",
    );
  });

  it('is what every catalog text model states as its defaults.seq', () => {
    const text = CATALOG.filter((e) => e.kind === 'transformer' && e.input === 'tokens');
    expect(text.length).toBeGreaterThan(8);
    for (const e of text) {
      if (e.kind !== 'transformer') continue;
      expect([e.name, e.defaults.seq]).toEqual([e.name, defaultSequence(e.context as number, e.causal)]);
    }
  });

  it('gives the catalog model and its config.json the same sequence (a GGUF header: gguf-architecture.test.ts)', () => {
    const catalog = catalogWorkload('llama-3.1-8b').bindings.seq;
    expect(catalog).toBe(8192);
    expect(seqOf(hfConfigDecoder(LLAMA_31_8B, 'config.json', 'Llama-3.1-8B').entry)).toBe(catalog);
    expect(catalogWorkload('mistral-7b').bindings.seq).toBe(
      seqOf(hfConfigDecoder(MISTRAL_7B_V03, 'config.json', 'Mistral-7B').entry),
    );
  });
});
