/**
 * Fine-tuning memory against published measurements (issue 47): every cell of
 * bench/finetune/published-memory.json the planner can express, priced by `plan` on one datasheet
 * GPU (or the cell's two, for the full fine-tuning cell) in the cell's own configuration: model,
 * adapter, rank, targets, sequence, batch, gradient checkpointing, and the stack that ran it.
 *
 * Mapping rules, fixed before any figure was compared (and not changed after):
 * - tool -> stack: torchtune -> torchtune; PEFT + transformers (Hugging Face + FA2, LLaMA-Factory's
 *   HF rows, Qwen's finetune.py) -> peft; Unsloth -> unsloth; LitGPT (bf16-true: adapters and
 *   AdamW state in bf16, chunked cross-entropy) -> torchtune, whose rules are the same.
 * - gradient checkpointing true -> --recompute full; false -> none; not stated -> LLaMA-Factory's
 *   default (on); any other tool's unstated cell is left out.
 * - 'GB' is 1e9 bytes where the source divides by 1e9 (LitGPT) or does not say (LLaMA-Factory,
 *   Qwen); a card class ("16 GB VRAM") and torchtune's prints are GiB.
 * - capacity-bound cells (the longest sequence that fit a card) compare the prediction at that
 *   sequence with the card: a prediction above it says the run would not have fit.
 * - Left out: estimates, sequences not stated, full fine-tuning with 8-bit paged AdamW in the
 *   backward pass (not the 16-byte accounting the planner holds), models outside the catalog.
 * The stacks' rules (core/workload/finetune.ts) come from the tools' code as bench/finetune/README.md
 * describes it; the Unsloth HF+FA2 cells were looked at while the peft rules were written.
 *
 * Run: npm run bench:finetune [-- --quiet]
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { hfConfigDecoder } from '../src-main/core/catalog/hf-config.js';
import { getCatalogEntry, type CatalogEntry } from '../src-main/core/catalog/index.js';
import type { FinetuneStack, LoraTarget } from '../src-main/core/workload/finetune.js';
import { planWorkload, type PlanRequest } from '../src-main/services/plan/plan-service.js';

interface Cell {
  id: string;
  kind: 'measured' | 'capacity-bound' | 'estimate';
  model: string;
  adapter: 'lora' | 'qlora' | 'full';
  rank: number | null;
  targets: string[] | null;
  seq: number | null;
  batch: number | null;
  gradientCheckpointing: boolean | string | null;
  tool: string;
  memoryGiB: number;
  unit: 'GB' | 'GiB';
  gpu: string | null;
  notes?: string;
}

/** Qwen-7B (Qwen v1, 2023) as a config.json: Llama-like with Q/K/V biases; w1/w2 are the SwiGLU pair of 11008. */
const QWEN_7B = {
  model_type: 'qwen2',
  hidden_size: 4096,
  intermediate_size: 11008,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  num_key_value_heads: 32,
  vocab_size: 151936,
  max_position_embeddings: 8192,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

const MODELS: Record<string, () => CatalogEntry> = {
  'Llama 3.1 8B': () => getCatalogEntry('llama-3.1-8b'),
  'Llama 3.1 8B Instruct': () => getCatalogEntry('llama-3.1-8b'),
  // Llama 3 8B has Llama 3.1 8B's shapes (only the RoPE scaling and context differ).
  'Llama 3 8B': () => getCatalogEntry('llama-3.1-8b'),
  'Llama 2 7B': () => getCatalogEntry('llama-7b'),
  'Mistral 7B v0.1': () => getCatalogEntry('mistral-7b'),
  'Qwen-7B': () => hfConfigDecoder(QWEN_7B, 'Qwen-7B config.json', 'Qwen-7B').entry,
};

function stackOf(tool: string): FinetuneStack | null {
  if (/^torchtune/i.test(tool) || /^LitGPT/i.test(tool)) return 'torchtune';
  if (/unsloth/i.test(tool)) return 'unsloth';
  if (/PEFT|Hugging Face|transformers|LLaMA-Factory \(HF/i.test(tool)) return 'peft';
  return null;
}

/** The recomputation a cell ran with, or why it is left out. */
function recomputeOf(c: Cell): 'full' | 'none' | string {
  if (c.gradientCheckpointing === true || c.gradientCheckpointing === 'unsloth (offloaded)') return 'full';
  if (c.gradientCheckpointing === false) return 'none';
  if (/LLaMA-Factory/.test(c.tool)) return 'full';
  return 'gradient checkpointing not stated';
}

const TARGET_NAMES: Record<string, LoraTarget[]> = {
  q: ['q'],
  k: ['k'],
  v: ['v'],
  o: ['o'],
  gate: ['gate'],
  up: ['up'],
  down: ['down'],
  'c_attn(qkv)': ['q', 'k', 'v'],
  'c_proj(o)': ['o', 'down'],
  w1: ['gate'],
  w2: ['up'],
};

function targetsOf(c: Cell): LoraTarget[] | undefined {
  if (!c.targets) return undefined;
  const out = new Set<LoraTarget>();
  for (const t of c.targets) for (const x of TARGET_NAMES[t] ?? []) out.add(x);
  return out.size > 0 ? [...out] : undefined;
}

const GIB = 2 ** 30;
const publishedBytes = (c: Cell): number =>
  c.kind === 'capacity-bound' || c.unit === 'GiB' ? c.memoryGiB * GIB : c.memoryGiB * 1e9;

interface Priced {
  cell: Cell;
  stack: FinetuneStack | 'full';
  predictedBytes: number;
  publishedBytes: number;
  error: number;
}

/** The cell's request: one large datasheet GPU (the memory is the plan's need, not the card's). */
function requestOf(
  c: Cell,
  decoder: CatalogEntry,
  stack: FinetuneStack | null,
  recompute: 'full' | 'none',
): PlanRequest {
  const base = {
    workload: decoder.name,
    decoder,
    devices: 'none',
    mode: 'training' as const,
    seq: c.seq as number,
    topN: 1,
    recompute,
    offload: 'no' as const,
  };
  if (c.adapter === 'full')
    // The Qwen full fine-tuning cell: two GPUs, ZeRO-3, one sample each.
    return { ...base, virtual: ['2xA100 SXM4 80GB'], batch: 2, zero: 3 };
  const targets = targetsOf(c);
  return {
    ...base,
    virtual: ['H200 SXM'],
    batch: c.batch as number,
    zero: 0,
    finetune: {
      adapter: c.adapter,
      stack: stack as FinetuneStack,
      rank: c.rank as number,
      ...(targets ? { targets } : {}),
    },
  };
}

function priceCell(c: Cell): Priced | string {
  if (c.kind === 'estimate') return 'an estimate, not a measurement';
  const model = MODELS[c.model];
  if (!model) return `${c.model} is not described here`;
  if (c.seq === null || c.batch === null) return 'sequence or batch not stated';
  const recompute = recomputeOf(c);
  if (recompute !== 'full' && recompute !== 'none') return recompute;
  const stack = c.adapter === 'full' ? null : stackOf(c.tool);
  if (c.adapter !== 'full' && !stack) return `${c.tool}: no stack modelled`;
  if (c.adapter === 'full' && !/DeepSpeed ZeRO-3/.test(c.tool))
    return 'full fine-tuning without the 16-byte mixed-precision Adam accounting (8-bit paged AdamW)';
  const r = planWorkload(openDatabase(':memory:'), requestOf(c, model(), stack, recompute));
  const plan = r.result.plans[0];
  if (!plan) return 'no plan';
  const predictedBytes = plan.memory.reduce((s, m) => s + m.neededBytes, 0);
  const published = publishedBytes(c);
  return {
    cell: c,
    stack: stack ?? 'full',
    predictedBytes,
    publishedBytes: published,
    error: predictedBytes / published - 1,
  };
}

const fmt = (bytes: number): string => `${(bytes / GIB).toFixed(2)} GiB`;
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;

function main(): void {
  const quiet = process.argv.includes('--quiet');
  const cells = JSON.parse(readFileSync('bench/finetune/published-memory.json', 'utf8')) as Cell[];
  const priced: Priced[] = [];
  const left: { id: string; why: string }[] = [];
  for (const c of cells) {
    const p = priceCell(c);
    if (typeof p === 'string') left.push({ id: c.id, why: p });
    else priced.push(p);
  }
  const lines = [
    '| cell | model | adapter | stack | config | published | predicted | error |',
    '|---|---|---|---|---|--:|--:|--:|',
    ...priced.map(
      (p) =>
        `| ${p.cell.id} | ${p.cell.model} | ${p.cell.adapter} | ${p.stack} | r${p.cell.rank ?? '-'} ${(targetsOf(p.cell) ?? ['all']).join(',')}, ${p.cell.seq} x ${p.cell.batch}, ${recomputeOf(p.cell) === 'full' ? 'checkpointing' : 'no checkpointing'} | ${p.cell.kind === 'capacity-bound' ? '<= ' : ''}${fmt(p.publishedBytes)} | ${fmt(p.predictedBytes)} | ${pct(p.error)} |`,
    ),
  ];
  const measured = priced.filter((p) => p.cell.kind === 'measured');
  const within = measured.filter((p) => Math.abs(p.error) <= 0.15);
  const abs = measured.map((p) => Math.abs(p.error)).sort((a, b) => a - b);
  const median = abs.length
    ? (abs[Math.floor((abs.length - 1) / 2)]! + abs[Math.ceil((abs.length - 1) / 2)]!) / 2
    : NaN;
  const llama31 = measured.filter((p) => /Llama 3(\.1)? 8B/.test(p.cell.model) && p.cell.adapter !== 'full');
  const summary = [
    `measured cells priced: ${measured.length}; within ±15%: ${within.length}; median |error| ${pct(median)}`,
    `Llama 3 / 3.1 8B LoRA and QLoRA cells within ±15%: ${
      llama31
        .filter((p) => Math.abs(p.error) <= 0.15)
        .map((p) => `${p.cell.id} (${pct(p.error)})`)
        .join(', ') || 'none'
    }`,
    `capacity bounds: ${priced
      .filter((p) => p.cell.kind === 'capacity-bound')
      .map((p) => `${p.cell.id} ${pct(p.error)}`)
      .join(', ')}`,
    `left out: ${left.map((l) => `${l.id} (${l.why})`).join('; ')}`,
  ];
  if (!quiet) console.log(lines.join('\n'));
  console.log(summary.join('\n'));
  mkdirSync('bench/results', { recursive: true });
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(
    `bench/results/finetune-memory-${date}.md`,
    `# Fine-tuning memory against published measurements (${date})\n\n${lines.join('\n')}\n\n${summary.map((s) => `- ${s}`).join('\n')}\n`,
  );
}

main();
