/**
 * The published-figures table (bench/published/cells-*.json): sources with their calibration or
 * held-out set, and cells of measured figures with the configuration each was measured in.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const id = z.string().regex(/^[a-z0-9][a-z0-9.-]*$/);

export const SourceSchema = z.object({
  id,
  set: z.enum(['calibration', 'held-out']),
  title: z.string(),
  repo: z.string().optional(),
  path: z.string().optional(),
  commit: z.string().optional(),
  paper: z.string().optional(),
  independentOf: z.string().optional(),
});
export type Source = z.infer<typeof SourceSchema>;

export const ArchSchema = z.object({
  family: z.enum(['gpt', 'llama']),
  layers: z.number().int().positive(),
  hidden: z.number().int().positive(),
  heads: z.number().int().positive(),
  kvHeads: z.number().int().positive().optional(),
  ffn: z.number().int().positive(),
  vocab: z.number().int().positive(),
  context: z.number().int().positive(),
  params: z.number().positive().optional(),
});
export type Arch = z.infer<typeof ArchSchema>;

export const CellSchema = z.object({
  id,
  source: id,
  where: z.string(),
  quote: z.string(),
  gpu: z.string(),
  gpus: z.number().int().positive(),
  kind: z.enum(['training', 'prefill', 'decode', 'serving', 'gemm', 'bandwidth', 'nccl']),
  model: z.string().optional(),
  arch: ArchSchema.optional(),
  config: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).default({}),
  value: z.number().positive(),
  unit: z.string(),
  metric: z.string().optional(),
  note: z.string().optional(),
  unsure: z.union([z.boolean(), z.string()]).optional(),
  /** Other figures of the same measurement (MFU, model TFLOP/s, memoryGiB: GiB per GPU as measured). */
  alsoPublished: z.record(z.string(), z.number()).optional(),
});
export type Cell = z.infer<typeof CellSchema>;

const FileSchema = z.object({
  about: z.string(),
  sources: z.array(SourceSchema),
  cells: z.array(z.unknown()),
});

export interface Table {
  sources: Map<string, Source>;
  cells: Cell[];
  /** Cells the schema refused, with why (listed, never dropped silently). */
  invalid: { file: string; id: string; problem: string }[];
}

/** Every cells-*.json of the folder, checked: unique ids, known sources. */
export function loadTable(dir: string): Table {
  const sources = new Map<string, Source>();
  const cells: Cell[] = [];
  const invalid: Table['invalid'] = [];
  for (const file of readdirSync(dir)
    .filter((f) => /^cells-.*\.json$/.test(f))
    .sort()) {
    const parsed = FileSchema.parse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    for (const s of parsed.sources) {
      if (sources.has(s.id)) throw new Error(`${file}: source ${s.id} defined twice`);
      sources.set(s.id, s);
    }
    for (const raw of parsed.cells) {
      const r = CellSchema.safeParse(raw);
      const rawId = String((raw as { id?: unknown }).id ?? '?');
      if (!r.success) {
        invalid.push({
          file,
          id: rawId,
          problem: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        continue;
      }
      cells.push(r.data);
    }
  }
  const ids = new Set<string>();
  for (const c of cells) {
    if (ids.has(c.id)) throw new Error(`cell ${c.id} appears twice`);
    ids.add(c.id);
    if (!sources.has(c.source)) throw new Error(`cell ${c.id}: unknown source ${c.source}`);
  }
  return { sources, cells, invalid };
}
