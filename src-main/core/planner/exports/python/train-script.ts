/**
 * A plan's training scripts as Python files: a head stating the plan (its shape, batch split,
 * schedule, ZeRO stage, recomputation, precision, each stage's blocks and the decoder's config),
 * then the shared decoder and runtime, then the part of its kind: the torch script
 * (train_pipeline.py: DDP, FSDP or the plan's pipeline and tensor parallelism by hand), DeepSpeed's
 * (train_deepspeed.py) or accelerate's (train_accelerate.py). Every script builds the model from
 * its config and runs as it is written; none leaves a function for the user to fill in. Pure.
 */
import type { Mode, Schedule } from '../../types.js';
import type { TorchOptimizer } from '../../stacks/stack-rule.js';
import { commentText, exportZeroStage, type ExportInput, type ExportLayout } from '../common.js';
import { ACCELERATE_PY } from './accelerate-py.js';
import { COMMON_PY } from './common-py.js';
import { DECODER_PY } from './decoder-py.js';
import { DEEPSPEED_PY } from './deepspeed-py.js';
import { modelConfigPy, type ExportModel } from './model-config.js';
import { TORCH_PY } from './torch-py.js';

/** What each kind of script is called and the part it ends with. */
export const TRAIN_SCRIPTS = {
  torch: { file: 'train_pipeline.py', part: TORCH_PY, title: 'torch.distributed (DDP, FSDP or pipeline)' },
  deepspeed: { file: 'train_deepspeed.py', part: DEEPSPEED_PY, title: 'DeepSpeed' },
  accelerate: { file: 'train_accelerate.py', part: ACCELERATE_PY, title: 'Hugging Face accelerate' },
} as const;

export type TrainScriptKind = keyof typeof TRAIN_SCRIPTS;

interface TrainScriptInput {
  kind: TrainScriptKind;
  layout: ExportLayout;
  mode: Mode;
  schedule: Schedule;
  zero: 0 | 1 | 2 | 3;
  /** ZeRO-3 hybrid sharding: data-parallel ranks a shard group spans; 0: all of them. */
  shardGroup: number;
  recompute: boolean;
  precision: 'bf16' | 'fp16' | 'fp32';
  /** The optimizer step the stack's rule prices (ExportInput.optimizer); absent: AdamW foreach, no clipping. */
  optimizer: TorchOptimizer | undefined;
  /** The decoder to build; absent or without a config: the script needs --config. */
  model: ExportModel | undefined;
  /** How the script is launched, for its docstring. */
  launch: string;
  /** Python defining pipeline_module(layers) (DeepSpeed with several stages). */
  extra?: readonly string[];
}

/** Default tokens per sample when the plan does not say (no model described). */
const DEFAULT_SEQ = 2048;

/** Blocks [first, last) of each stage, by the stages' block counts. */
function stageBlocks(layout: ExportLayout): [number, number][] {
  let next = 0;
  return layout.stages.map((s) => {
    const first = next;
    next += s.blocks;
    return [first, next];
  });
}

function trainScript(p: TrainScriptInput): string {
  const { layout, model } = p;
  const script = TRAIN_SCRIPTS[p.kind];
  const seq = model?.seqLen ?? DEFAULT_SEQ;
  const about = model?.config
    ? [`# Model: ${commentText(model.name)}, built from its config (MODEL_CONFIG below; --config replaces it).`]
    : [
        `# Model: ${commentText(model?.name ?? 'the workload')} is not a decoder this script builds` +
          `${model?.why ? ` (${commentText(model.why)})` : ''}: pass --config with a decoder's config.json.`,
      ];
  const head = [
    '#!/usr/bin/env python3',
    `"""Training as pipeDejavu planned it, with ${script.title}.`,
    '',
    `Launch: ${p.launch}`,
    'Every rank runs this file. Arguments: --steps N (or --max-steps), --data FILE (token ids: a .npy array or a raw',
    '.bin of uint16; without it synthetic random tokens, said so), --config config.json, --save-every N, --ckpt-dir.',
    'The first line of a step says its loss. Checkpoints: the latest one in --ckpt-dir is resumed.',
    '"""',
    ...about,
    ...(model?.notes ?? []).map((n) => `# Note: ${commentText(n)}`),
    'import argparse',
    'import contextlib',
    'import functools',
    'import json',
    'import math',
    'import os',
    'import time',
    '',
    'try:',
    '    import torch',
    'except ImportError as e:',
    '    raise SystemExit(f"{os.path.basename(__file__)} needs torch, which does not import here: {e} (pip install torch)")',
    'import torch.distributed as dist',
    'import torch.nn as nn',
    'import torch.nn.functional as F',
    'import torch.utils.checkpoint',
    '',
    `# The plan: ${layout.pp} pipeline stage(s) x ${layout.dp} data-parallel x ${layout.tp} tensor-parallel (${p.mode}).`,
    `PP = ${layout.pp}`,
    `DP = ${layout.dp}`,
    `TP = ${layout.tp}`,
    `N_MICROBATCHES = ${layout.microbatches}`,
    `MICROBATCH_SIZE = ${layout.microBatch}`,
    `SCHEDULE = "${p.schedule === '1f1b' ? '1f1b' : 'gpipe'}"`,
    '# ZeRO: 1 shards the optimizer state over data-parallel ranks; 2 and 3 (FSDP) gradients and weights too.',
    `ZERO_STAGE = ${p.zero}`,
    '# Hybrid sharding (HSDP, ZeRO-3): FSDP shards over this many consecutive data-parallel ranks and replicates',
    '# across the groups (HYBRID_SHARD); 0: over all of them (FULL_SHARD).',
    `SHARD_GROUP = ${p.shardGroup}`,
    `TRAINING = ${p.mode === 'training' ? 'True' : 'False'}`,
    `RECOMPUTE = ${p.recompute ? 'True' : 'False'}`,
    '# bf16 on GPUs that have it; fp16 (loss-scaled) on older ones; fp32 on the CPU whatever this says.',
    `PRECISION = "${p.precision}"`,
    'LOSS_SCALE = 1024.0',
    "# The optimizer step the plan priced: AdamW fused (one kernel) or foreach, and clip_grad_norm_'s max norm.",
    `FUSED_ADAMW = ${p.optimizer?.fused === true ? 'True' : 'False'}`,
    `CLIP_GRAD_NORM = ${typeof p.optimizer?.clipGradNorm === 'number' ? p.optimizer.clipGradNorm.toFixed(1) : 'None'}`,
    `SEQ_LEN = ${seq}`,
    '# The decoder blocks [first, last) of each pipeline stage.',
    `STAGE_BLOCKS = [${stageBlocks(layout)
      .map(([a, b]) => `(${a}, ${b})`)
      .join(', ')}]`,
    ...modelConfigPy(model?.config ?? null),
    '# This rank: its stage, replica and tensor-parallel rank (setup), and its process groups.',
    'RUN = {}',
    'GROUPS = {}',
    '',
  ];
  return [...head, DECODER_PY, COMMON_PY, ...(p.extra ?? []), script.part].join('\n');
}

/** The precision the scripts run: the plan's, bf16 for fp8 (the scripts have no fp8 GEMMs). */
function scriptPrecision(dtype: ExportInput['dtype']): 'bf16' | 'fp16' | 'fp32' {
  return dtype === 'fp16' || dtype === 'fp32' ? dtype : 'bf16';
}

/** The script of `kind` for this plan, launched by `launch`; `zero` where the engine runs another stage than the plan's. */
export function planScript(
  kind: TrainScriptKind,
  input: ExportInput,
  layout: ExportLayout,
  launch: string,
  more: { zero?: 0 | 1 | 2 | 3; extra?: readonly string[] } = {},
): string {
  return trainScript({
    kind,
    layout,
    mode: input.problem.mode,
    schedule: input.plan.schedule,
    zero: more.zero ?? exportZeroStage(input),
    shardGroup: (more.zero ?? exportZeroStage(input)) === 3 ? (input.plan.shardGroup ?? 0) : 0,
    recompute: input.plan.recompute !== undefined,
    precision: scriptPrecision(input.dtype),
    optimizer: input.optimizer,
    model: input.model,
    launch,
    ...(more.extra ? { extra: more.extra } : {}),
  });
}
