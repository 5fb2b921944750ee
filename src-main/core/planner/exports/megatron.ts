/**
 * A plan as Megatron-LM arguments: pipeline and tensor-parallel sizes (with sequence parallelism,
 * which the planner's activation memory assumes), layers, micro and global batch, precision; uneven stages with --decoder-first/last-pipeline-num-layers when only the end
 * stages differ from an even middle, else --pipeline-model-parallel-layout ("E" embedding, "t"
 * a decoder layer, "L" loss, "|" between stages). Pure.
 */
import { commentText, exportLayout, exportZeroStage, torchrunCommands, type ExportInput } from './common.js';

/** Megatron-LM's own training script, run from its checkout (megatron.sh changes into $MEGATRON_LM). */
/** Megatron-LM's GPT pretraining script, in its checkout. */
export const MEGATRON_SCRIPT = 'pretrain_gpt.py';

export interface MegatronExport {
  /** Parallelism, batch and precision arguments, and the model's own when its config is known (mock data, a null tokenizer). */
  args: string[];
  commands: string[];
  /** The layout string when the split needs one. */
  layout: string | null;
  warnings: string[];
}

/** How Megatron-LM can place these per-stage decoder layer counts. */
export function megatronSplit(counts: readonly number[]): { first?: number; last?: number; layout?: string } {
  const p = counts.length;
  if (p < 2 || counts.every((c) => c === counts[0])) return {};
  const c0 = counts[0] as number;
  const cl = counts[p - 1] as number;
  const middle = p === 2 ? [cl] : counts.slice(1, -1);
  const m = middle[0] as number;
  if (counts.every((c) => c > 0) && middle.every((c) => c === m)) {
    if (p === 2) return { first: c0 };
    return { ...(c0 !== m ? { first: c0 } : {}), ...(cl !== m ? { last: cl } : {}) };
  }
  return { layout: counts.map((c, i) => `${i === 0 ? 'E' : ''}${'t'.repeat(c)}${i === p - 1 ? 'L' : ''}`).join('|') };
}

export function exportMegatron(input: ExportInput): MegatronExport {
  const layout = exportLayout(input, 'Megatron-LM');
  const warnings = layout.warnings;
  const counts = layout.stages.map((s) => s.blocks);
  const numLayers = counts.reduce((a, b) => a + b, 0);
  if (numLayers === 0)
    warnings.push('no transformer blocks (layer names ending in .<n>): Megatron-LM builds GPT-style models');
  if (input.problem.mode !== 'training') warnings.push('Megatron-LM arguments are for training (pretrain_gpt.py)');
  const types = [...new Set(layout.ranks.map((r) => commentText(r.device.name)))];
  if (types.length > 1) {
    warnings.push(
      `Megatron-LM assumes one GPU type: its split, kernels and schedule ignore that stages run on ${types.join(', ')}`,
    );
  }
  const split = megatronSplit(counts);
  const args = [
    '--tensor-model-parallel-size',
    String(layout.tp),
    '--pipeline-model-parallel-size',
    String(layout.pp),
    '--num-layers',
    String(numLayers),
    '--micro-batch-size',
    String(layout.microBatch),
    '--global-batch-size',
    String(layout.globalBatch),
  ];
  if (layout.tp > 1) args.push('--sequence-parallel');
  // Transformer Engine's userbuffers overlap the sequence-parallel collectives with the GEMMs, as the megatron stack prices it (stacks/megatron-stack.ts).
  const overlap = input.problem.tensorOverlap?.smCount;
  if (layout.tp > 1 && overlap && layout.ranks.every((r) => overlap[r.device.id] !== undefined))
    args.push('--tp-comm-overlap');
  if (layout.cp > 1) args.push('--context-parallel-size', String(layout.cp));
  args.push(...expertArgs(input, layout.tp));
  args.push(...interleavingArgs(input.plan.virtualStages ?? 1, counts, warnings));
  if (split.first !== undefined) args.push('--decoder-first-pipeline-num-layers', String(split.first));
  if (split.last !== undefined) args.push('--decoder-last-pipeline-num-layers', String(split.last));
  if (split.layout !== undefined) {
    args.push('--pipeline-model-parallel-layout', split.layout);
    warnings.push(
      `stages of ${counts.join(', ')} layers differ beyond the first and last: needs --pipeline-model-parallel-layout (experimental in Megatron-LM)`,
    );
  }
  const dtype = input.dtype ?? 'bf16';
  // fp8: Transformer Engine's fp8 GEMMs (E4M3 forward, E5M2 gradients), bf16 elsewhere.
  if (dtype === 'fp8')
    args.push('--bf16', '--fp8-format', 'hybrid', '--fp8-amax-history-len', '1024', '--fp8-amax-compute-algo', 'max');
  else if (dtype !== 'fp32') args.push(`--${dtype}`);
  const zero = exportZeroStage(input);
  // Megatron-LM's default clipping, written as its stack's rule prices the step (megatron-stack.ts).
  if (input.problem.mode === 'training') args.push('--clip-grad', '1.0');
  // Megatron's distributed optimizer shards the optimizer state over data-parallel ranks: ZeRO-1.
  if (input.plan.optimizerOffload || zero >= 1) args.push('--use-distributed-optimizer');
  // Gradients reduced in buckets as the backward pass fills them, as the megatron stack prices it (stacks/megatron-stack.ts).
  if (layout.dp > 1) args.push('--overlap-grad-reduce');
  if (zero >= 2)
    warnings.push(
      `the plan shards ${zero === 3 ? 'weights, gradients' : 'gradients'} and optimizer state (ZeRO-${zero}); Megatron-LM's distributed optimizer shards the optimizer state only: ` +
        `use Megatron FSDP (--use-megatron-fsdp --data-parallel-sharding-strategy ${zero === 3 ? 'optim_grads_params' : 'optim_grads'}, recent Megatron-core), or the DeepSpeed or torch export`,
    );
  if (input.plan.optimizerOffload) {
    // Megatron-core's distributed optimizer offload (recent Megatron-LM releases).
    args.push('--optimizer-cpu-offload');
    warnings.push('--optimizer-cpu-offload needs a recent Megatron-LM (Megatron-core 0.10 or later)');
  }
  // Megatron-LM's activation recomputation (Korthikanti et al.): selective recomputes the attention core, full every layer.
  if (input.plan.recompute === 'selective') args.push('--recompute-activations');
  if (input.plan.recompute === 'full')
    args.push('--recompute-granularity', 'full', '--recompute-method', 'uniform', '--recompute-num-layers', '1');
  args.push(...modelArgs(input, numLayers, warnings));
  const commands = torchrunCommands(layout, input, input.script ?? MEGATRON_SCRIPT, args);
  return { args, commands, layout: split.layout ?? null, warnings };
}

/**
 * A mixture of experts: its experts and top-k (--num-experts, --moe-router-topk), spread over the
 * plan's expert-parallel GPUs, or else over the tensor-parallel group (MoE parallel folding), the
 * experts whole (--expert-tensor-parallel-size 1). None for a dense model.
 */
function expertArgs(input: ExportInput, tp: number): string[] {
  const moe = input.problem.layers.find((l) => l.experts)?.experts;
  const folded = input.problem.layers.some((l) => l.tensor?.experts !== undefined);
  if (!moe && !folded) return [];
  const ep = input.plan.expertParallel ?? tp;
  return [
    ...(moe ? ['--num-experts', String(moe.count), '--moe-router-topk', String(moe.topK)] : []),
    ...(ep > 1 ? ['--expert-model-parallel-size', String(ep), '--expert-tensor-parallel-size', '1'] : []),
  ];
}

/**
 * Interleaved 1F1B: --num-layers-per-virtual-pipeline-stage, the decoder layers of one model chunk
 * (Megatron-LM's arguments; it needs the microbatches a multiple of the pipeline size, which the
 * plan keeps). None for v = 1, or, with a warning, when the stages' layers do not split into v equal chunks.
 */
function interleavingArgs(v: number, counts: readonly number[], warnings: string[]): string[] {
  if (v <= 1) return [];
  const per = (counts[0] ?? 0) / v;
  if (!Number.isInteger(per) || per < 1 || counts.some((c) => c !== counts[0])) {
    warnings.push(
      `the plan interleaves ${v} virtual stages, but its stages' ${counts.join(', ')} layers do not split into ${v} equal chunks: Megatron-LM cannot run it`,
    );
    return [];
  }
  return ['--num-layers-per-virtual-pipeline-stage', String(per)];
}

/**
 * The model, data, optimizer and checkpoint arguments of a decoder with a known config: mock data
 * and a null tokenizer of the model's vocabulary (give --data-path and a tokenizer for real data);
 * none, with a warning, when the config is unknown.
 */
function modelArgs(input: ExportInput, numLayers: number, warnings: string[]): string[] {
  const c = input.model?.config;
  if (!c) {
    warnings.push(
      "the model's own Megatron-LM arguments (--hidden-size, --num-attention-heads, --seq-length, data) are yours to add",
    );
    return [];
  }
  if (c.num_hidden_layers !== numLayers)
    warnings.push(`the config has ${c.num_hidden_layers} layers; the plan splits ${numLayers}`);
  const seq = input.model?.seqLen ?? c.max_position_embeddings;
  return [
    '--hidden-size',
    String(c.hidden_size),
    '--ffn-hidden-size',
    String(c.intermediate_size),
    '--num-attention-heads',
    String(c.num_attention_heads),
    ...(c.num_key_value_heads < c.num_attention_heads
      ? ['--group-query-attention', '--num-query-groups', String(c.num_key_value_heads)]
      : []),
    '--seq-length',
    String(seq),
    '--max-position-embeddings',
    String(Math.max(seq, c.max_position_embeddings)),
    '--position-embedding-type',
    c.position === 'rope' ? 'rope' : 'learned_absolute',
    '--normalization',
    c.norm === 'rmsnorm' ? 'RMSNorm' : 'LayerNorm',
    ...(c.mlp === 'gated' ? ['--swiglu'] : []),
    ...(c.qkv_bias || c.o_bias || c.mlp_bias ? [] : ['--disable-bias-linear']),
    ...(c.tie_word_embeddings ? [] : ['--untie-embeddings-and-output-weights']),
    '--mock-data',
    '--tokenizer-type',
    'NullTokenizer',
    '--vocab-size',
    String(c.vocab_size),
    '--train-iters',
    '100',
    '--lr',
    '3e-4',
    '--save',
    'checkpoints',
    '--load',
    'checkpoints',
    '--save-interval',
    '1000',
  ];
}
