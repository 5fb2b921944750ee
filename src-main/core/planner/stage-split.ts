/**
 * How a given layout's pipeline stages split the model's layers, as the stack that runs it splits
 * them (each rule read in the stack's source at a named commit). Pure.
 *
 * - No stack, or Megatron-LM: pp dividing the transformer blocks, an even split (Megatron-LM's
 *   default). Otherwise the embedding and the head weigh one block each, as the Llama 3 405B run
 *   split 126 blocks over 16 stages ("we reduce one Transformer layer each from the first and the
 *   last stages", Llama 3 paper §3.3.2) and BLOOM-176B 70 over 12 (--pp-partition-method
 *   'type:transformer|embedding', bigscience train/tr11-176B-ml/tr11-176B-ml.slurm): the middle
 *   stages hold ⌈(blocks + 2) / pp⌉ each, the first and last the rest (the first one more when it is
 *   odd). Megatron-LM runs it with --decoder-first/last-pipeline-num-layers, the middle stages
 *   sharing the rest evenly (megatron/core/transformer/transformer_block.py get_num_layers_to_build,
 *   NVIDIA/Megatron-LM @0d7e02bd, core_v0.15.0).
 * - torchtitan: its own split, always (torchtitan/distributed/pipeline_parallel.py
 *   _generate_llm_fqn_per_model_part, pytorch/torchtitan @b5bcd76c): blocks + 2 effective layers
 *   (pipeline_parallel_first/last_stage_less_layers, default 1 each) split ⌊n / pp⌋ a stage, the
 *   first (n mod pp) stages one more, the first and last stage one block fewer.
 * - DeepSpeed: PipelineModule's default partition_method 'parameters', always: the layers balanced
 *   by parameter count (deepspeed/runtime/pipe/module.py _partition_layers, utils.py
 *   partition_balanced, microsoft/DeepSpeed @38327e07).
 * A model without blocks splits its layers as evenly as they go (DeepSpeed: by parameters).
 */
import { UserError } from '../errors.js';
import { isBlockName } from '../catalog/block-names.js';
import { partitionBalanced } from './exports/deepspeed.js';
import type { TrainingStack } from './stacks/stack-names.js';
import type { PlanLayer } from './types.js';

/** The transformer blocks ("block.N" layers, contiguous), or null for a model without them. */
export function blockRange(layers: readonly Pick<PlanLayer, 'name'>[]): { first: number; count: number } | null {
  const idx = layers.flatMap((l, i) => (isBlockName(l.name) ? [i] : []));
  if (idx.length === 0) return null;
  const first = idx[0] as number;
  return idx.every((v, i) => v === first + i) ? { first, count: idx.length } : null;
}

export interface StageSplit {
  /** pp + 1 layer indices: stage s holds layers [bounds[s], bounds[s + 1]). */
  bounds: number[];
  /** How the blocks were split, said with the answer when the stages differ; null for an even split. */
  note: string | null;
}

/** The middle stages ⌈(B + 2) / pp⌉ (fewer when the ends would hold none), the first and last the rest. */
function endsLighter(blocks: number, pp: number): number[] {
  if (pp === 2) return [Math.ceil(blocks / 2), Math.floor(blocks / 2)];
  const middle = Math.min(Math.ceil((blocks + 2) / pp), Math.floor((blocks - 2) / (pp - 2)));
  const rest = blocks - middle * (pp - 2);
  return [Math.ceil(rest / 2), ...Array.from({ length: pp - 2 }, () => middle), Math.floor(rest / 2)];
}

/** torchtitan's _generate_llm_fqn_per_model_part(pp, blocks, input_weight=1, output_weight=1), as block counts. */
export function torchtitanBlocks(blocks: number, pp: number): number[] {
  if (pp === 1) return [blocks];
  const effective = blocks + 2;
  const per = Math.floor(effective / pp);
  const extra = effective % pp;
  return Array.from({ length: pp }, (_, s) => per + (s < extra ? 1 : 0) - (s === 0 || s === pp - 1 ? 1 : 0));
}

/** "7, 8 x14, 7": counts with runs folded. */
export function countsText(counts: readonly number[]): string {
  const runs: [number, number][] = [];
  for (const c of counts) {
    const last = runs[runs.length - 1];
    if (last && last[0] === c) last[1]++;
    else runs.push([c, 1]);
  }
  return runs.map(([c, n]) => (n > 1 ? `${c} x${n}` : `${c}`)).join(', ');
}

/** Bounds over the layers from blocks per stage: what precedes the blocks rides with the first, what follows with the last. */
function boundsOfBlocks(counts: readonly number[], first: number, layers: number): number[] {
  const bounds = [0];
  let at = first;
  counts.slice(0, -1).forEach((c) => bounds.push((at += c)));
  bounds.push(layers);
  return bounds;
}

/** Each stage's count of transformer blocks. */
export function blocksPerStage(layers: readonly Pick<PlanLayer, 'name'>[], bounds: readonly number[]): number[] {
  return bounds.slice(1).map((to, s) => layers.slice(bounds[s], to).filter((l) => isBlockName(l.name)).length);
}

function evenBounds(L: number, pp: number): number[] {
  return Array.from({ length: pp + 1 }, (_, s) => Math.round((s * L) / pp));
}

/** The stages' layer bounds for pp stages under the stack's rule (absent: no stack), with what was done. */
export function stageSplit(layers: readonly PlanLayer[], pp: number, stack?: TrainingStack): StageSplit {
  const L = layers.length;
  const blocks = blockRange(layers);
  if (stack === 'deepspeed' && pp > 1) {
    const bounds = partitionBalanced(
      layers.map((l) => l.params),
      pp,
    );
    return {
      bounds,
      note: `DeepSpeed's PipelineModule splits by parameters (partition_method 'parameters', its default): stages of ${countsText(bounds.slice(1).map((to, s) => to - (bounds[s] as number)))} layers`,
    };
  }
  if (!blocks) return { bounds: evenBounds(L, pp), note: null };
  const B = blocks.count;
  if (stack === 'torchtitan' && pp > 1) {
    const counts = torchtitanBlocks(B, pp);
    const bounds = boundsOfBlocks(counts, blocks.first, L);
    const empty = bounds.findIndex((b, s) => s > 0 && b <= (bounds[s - 1] as number));
    if (empty > 0)
      throw new UserError(
        `--layout pp=${pp}: torchtitan's split (the embedding and the head weighed one block each) leaves stage ${empty - 1} no layer; give a smaller pp`,
      );
    return {
      bounds,
      note: `torchtitan's split (pipeline_parallel_first/last_stage_less_layers 1, its defaults): stages of ${countsText(counts)} blocks`,
    };
  }
  if (B % pp === 0)
    return {
      bounds: boundsOfBlocks(
        Array.from({ length: pp }, () => B / pp),
        blocks.first,
        L,
      ),
      note: null,
    };
  const counts = endsLighter(B, pp);
  return {
    bounds: boundsOfBlocks(counts, blocks.first, L),
    note:
      `pp=${pp} does not divide the ${B} blocks: stages of ${countsText(counts)} blocks, the embedding and the head weighed one block each ` +
      `(as Llama 3 405B and BLOOM-176B split theirs); Megatron-LM: --decoder-first-pipeline-num-layers ${counts[0]} --decoder-last-pipeline-num-layers ${counts[pp - 1]}`,
  };
}
