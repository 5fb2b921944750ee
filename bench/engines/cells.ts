/**
 * The engine figures table (bench/engines/cells-*.json, issue 57): published serving figures of
 * named engines, each with the configuration it was measured in and its provenance. Sources are
 * split once, before any tuning, by one rule written here and in every file's `about`:
 * - `calibration`: an engine's own first-party publication (its repository, docs, blog, or a
 *   benchmark its maintainers posted in a pull request), usable to fit that engine's rules only
 *   (`engine`), or a first-party kernel microbenchmark (cuBLAS/CUTLASS, FlashAttention's own
 *   tables, Marlin's own tables: `engine` absent, `kernel` set);
 * - `held-out`: every third-party measurement (papers, independent benchmarkers, cloud vendors,
 *   one engine's team measuring another engine), never fitted on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ENGINE_NAMES } from '../../src-main/core/engines/engine-names.js';
import { BENCH_TOOL_NAMES } from './bench-tools.js';

const id = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/);
const engine = z.enum(ENGINE_NAMES as [string, ...string[]]);
/**
 * The benchmark tool that produced the figures (bench-tools.ts: whether it feeds the engine token
 * ids or text); absent: not stated, priced as the engine's server.
 */
const tool = z.enum(BENCH_TOOL_NAMES).optional();

export const EngineSourceSchema = z.strictObject({
  id,
  set: z.enum(['calibration', 'held-out']),
  /** calibration: the engine whose own publication this is (its rules alone may be fitted on it). */
  engine: engine.optional(),
  /** calibration: a first-party kernel microbenchmark (e.g. "marlin", "flash-attention", "cublas"). */
  kernel: z.string().optional(),
  title: z.string(),
  repo: z.string().optional(),
  path: z.string().optional(),
  commit: z.string().optional(),
  paper: z.string().optional(),
  url: z.string().optional(),
  /**
   * When the figures were measured, at the latest (the commit adding them, or the publication's
   * date), YYYY-MM-DD: a cell that states no engine version is priced with the engine's rules of
   * that date.
   */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** Who measured, and why the source is first-party (calibration) or independent (held-out). */
  who: z.string(),
  /** The tool all its cells came from; a source that mixes tools names it on each cell instead. */
  tool,
});
export type EngineSource = z.infer<typeof EngineSourceSchema>;

export const ArchSchema = z.strictObject({
  family: z.enum(['gpt', 'llama']),
  layers: z.number().int().positive(),
  hidden: z.number().int().positive(),
  heads: z.number().int().positive(),
  kvHeads: z.number().int().positive().optional(),
  ffn: z.number().int().positive(),
  vocab: z.number().int().positive(),
  context: z.number().int().positive(),
  params: z.number().positive().optional(),
  /** Mixture of experts: experts per layer and experts each token is routed to. */
  experts: z.number().int().positive().optional(),
  topK: z.number().int().positive().optional(),
});
export type Arch = z.infer<typeof ArchSchema>;

/**
 * What a figure measures:
 * - prefill: prompt processing (llama-bench ppN; tokens/s or ms for the prompt);
 * - decode: token generation at a batch from a context (tokens/s, per sequence or all);
 * - ttft / tpot / itl / e2e: first-token latency, time per output token, inter-token latency, a
 *   whole request's latency, at a stated batch, concurrency or request rate (ms or s);
 * - throughput: tokens/s of a static batch or an offline run (prefill and decode together; the
 *   metric says whether input tokens are counted), or requests/s.
 */
export const ENGINE_CELL_KINDS = ['prefill', 'decode', 'ttft', 'tpot', 'itl', 'e2e', 'throughput'] as const;

export const EngineCellSchema = z.strictObject({
  id,
  source: id,
  /** The tool this figure came from (the loader fills in its source's when the cell names none). */
  tool,
  /** Where in the source: section, table, row and column. */
  where: z.string(),
  /** The row as published, verbatim. */
  quote: z.string(),
  engine,
  /** The engine version the source states (absent: not stated). */
  engineVersion: z.string().optional(),
  gpu: z.string(),
  gpus: z.number().int().positive(),
  kind: z.enum(ENGINE_CELL_KINDS),
  /** A catalog model (models/*.json) or an architecture. */
  model: z.string().optional(),
  arch: ArchSchema.optional(),
  /**
   * The configuration as stated (absent: not stated, never guessed): weights (fp16, bf16, fp8,
   * int8, int4-awq, int4-gptq, q4_k_m, q4_0, q8_0, exl2-4.0bpw, ...), kvCache, tp, pp, dp, split
   * (llama.cpp layer/row), batch, concurrency, requestRate, numPrompts, promptTokens,
   * outputTokens, maxNumSeqs, maxBatchedTokens, cudaGraphs, flashAttention, link (nvlink, pcie),
   * identicalPrompts (the batch is one prompt copied and decoded greedily, as its script shows),
   * inputTokensTotal and outputTokensTotal (a run's total input and generated tokens, as its table states).
   */
  config: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).default({}),
  value: z.number().positive(),
  /** tokens/s, tokens/s/gpu, requests/s, ms, s. */
  unit: z.string(),
  /** Exactly what is counted: "output tokens/s", "input+output tokens/s", "tokens/s per sequence", "p50", "mean". */
  metric: z.string(),
  note: z.string().optional(),
  /** A doubt about the figure (kept, listed). */
  unsure: z.union([z.boolean(), z.string()]).optional(),
});
export type EngineCell = z.infer<typeof EngineCellSchema>;

const FileSchema = z.strictObject({
  about: z.string(),
  sources: z.array(EngineSourceSchema),
  cells: z.array(z.unknown()),
});

export interface EngineTable {
  sources: Map<string, EngineSource>;
  cells: EngineCell[];
  /** Cells the schema refused, with why (listed, never dropped silently). */
  invalid: { file: string; id: string; problem: string }[];
}

/** A calibration source must name whose it is; a held-out one must not be fitted on by anybody. */
function checkSource(file: string, s: EngineSource): void {
  if (s.set === 'calibration' && !s.engine && !s.kernel)
    throw new Error(`${file}: calibration source ${s.id} names no engine (first-party) or kernel microbenchmark`);
  if (s.set === 'held-out' && (s.engine || s.kernel))
    throw new Error(`${file}: held-out source ${s.id} names an engine or kernel it calibrates`);
}

/**
 * Every cells-*.json of the folder, checked: unique ids, known sources, a calibration cell of its
 * source's engine; a cell that names no tool takes its source's.
 */
export function loadEngineTable(dir: string): EngineTable {
  const sources = new Map<string, EngineSource>();
  const cells: EngineCell[] = [];
  const invalid: EngineTable['invalid'] = [];
  const files = readdirSync(dir)
    .filter((f) => /^cells-.*\.json$/.test(f))
    .sort();
  for (const file of files) {
    const parsed = FileSchema.parse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    for (const s of parsed.sources) {
      if (sources.has(s.id)) throw new Error(`${file}: source ${s.id} defined twice`);
      checkSource(file, s);
      sources.set(s.id, s);
    }
    for (const raw of parsed.cells) {
      const r = EngineCellSchema.safeParse(raw);
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
    const s = sources.get(c.source);
    if (!s) throw new Error(`cell ${c.id}: unknown source ${c.source}`);
    if (c.tool === undefined && s.tool !== undefined) c.tool = s.tool;
    if (s.set === 'calibration' && s.engine && s.engine !== c.engine)
      throw new Error(`cell ${c.id}: ${c.engine} measured by ${s.engine}'s own source is third-party: held out`);
  }
  return { sources, cells, invalid };
}
