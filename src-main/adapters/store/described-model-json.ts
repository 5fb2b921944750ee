/**
 * A Hugging Face model's description as the workloads table keeps it (described_json, schema 6):
 * written as JSON, read back through a schema, so a damaged row is a StoreError, never a wrong
 * model. The entry's own checks are the catalog's (TransformerEntrySchema); its name, family and
 * sources are the model's own text.
 */
import { z } from 'zod';
import type { DescribedModel } from '../../core/catalog/hf-model.js';
import { SAFETENSORS_DTYPE_BITS, type SafetensorsDtype } from '../../core/catalog/safetensors.js';
import { TransformerEntrySchema } from '../../core/catalog/schema.js';
import { defaultSequence } from '../../core/catalog/default-sequence.js';
import { WEIGHT_FORMATS, type WeightFormat } from '../../core/workload/generation.js';

const dtypes = Object.keys(SAFETENSORS_DTYPE_BITS) as [SafetensorsDtype, ...SafetensorsDtype[]];
const formats = Object.keys(WEIGHT_FORMATS) as [WeightFormat, ...WeightFormat[]];
const count = z.number().nonnegative();

const StoredModelSchema = z.strictObject({
  params: count,
  dtype: z.enum(dtypes).nullable(),
  quantization: z.enum(['none', 'gptq', 'awq', 'fp8', 'bnb-nf4', 'bnb-fp4', 'bnb-int8']),
  bits: count.nullable(),
  quantizedParams: count,
  bytes: count,
  format: z.enum(formats).nullable(),
  files: z.array(z.string()),
  label: z.string(),
});

/** The model's own text beside the catalog fields. */
const EntryTextSchema = z.object({ name: z.string().min(1), family: z.string(), sources: z.array(z.string()) });

const DescribedSchema = z.strictObject({
  entry: z.record(z.string(), z.unknown()),
  weights: z.enum(formats).nullable(),
  params: count,
  stored: StoredModelSchema.nullable(),
  warnings: z.array(z.string()),
});

/** The description read back, or null when it does not hold one (damaged, or written by something else). */
export function describedFromJson(text: string): DescribedModel | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const d = DescribedSchema.safeParse(raw);
  if (!d.success) return null;
  const named = EntryTextSchema.safeParse(d.data.entry);
  const fields = Object.fromEntries(Object.entries(d.data.entry).filter(([k]) => !(k in EntryTextSchema.shape)));
  // The catalog's name pattern is for its files: the model's name (data) stands beside it, as hfConfigDecoder does.
  const entry = TransformerEntrySchema.safeParse({ ...fields, name: 'model' });
  if (!named.success || !entry.success) return null;
  // Its default sequence by today's rule (a row written before the rule kept an older one).
  const e = entry.data;
  const defaults =
    e.context !== undefined ? { ...e.defaults, seq: defaultSequence(e.context, e.causal === true) } : e.defaults;
  return { ...d.data, entry: { ...e, defaults, ...named.data } };
}

export const describedToJson = (d: DescribedModel): string => JSON.stringify(d);
