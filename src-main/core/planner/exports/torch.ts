/**
 * A plan as PyTorch runs it: torchrun lines and a script using torch.distributed.pipelining
 * (tracer split with SplitPoint.BEGINNING at each stage's first layer, ScheduleGPipe or
 * Schedule1F1B, a ("pp", "dp", "tp") device mesh; data-parallel gradients all-reduced by hand as
 * DDP does, the optimizer state sharded by ZeroRedundancyOptimizer under ZeRO-1; tensor
 * parallelism as a DTensor parallelize_module plan over each stage's blocks). A one-stage plan at
 * ZeRO-2/3 is an FSDP2 script instead: fully_shard on each block and the model over the "dp"
 * mesh, reshard_after_forward=True for FULL_SHARD (ZeRO-3), False for SHARD_GRAD_OP (ZeRO-2). Pure.
 */
import {
  exportLayout,
  exportZeroStage,
  isBlock,
  pythonString,
  torchrunCommands,
  type ExportInput,
  type ExportLayout,
} from './common.js';
import type { Mode } from '../types.js';

export interface TorchExport {
  commands: string[];
  /** The script every rank runs (fill in build_model and make_batch). */
  python: string;
  splitPoints: string[];
  warnings: string[];
}

export function exportTorchPipelining(input: ExportInput): TorchExport {
  const layout = exportLayout(input, 'torch.distributed.pipelining');
  const { plan, problem } = input;
  const rename = input.moduleName ?? ((n: string) => n);
  const splitPoints = layout.stages.slice(1).map((s) => rename(s.layerNames[0] ?? ''));
  const training = problem.mode === 'training';
  const script = input.script ?? 'train_pipeline.py';
  if (!training && plan.schedule === '1f1b') {
    layout.warnings.push('1F1B interleaves backward passes; inference runs ScheduleGPipe (forward only)');
  }
  const sched = training && plan.schedule === '1f1b' ? 'Schedule1F1B' : 'ScheduleGPipe';
  if (input.dtype === 'fp8')
    layout.warnings.push(
      'fp8: the script runs bf16; convert the model for fp8 GEMMs with torchao (float8.convert_to_float8_training) or Transformer Engine layers',
    );
  const zero = exportZeroStage(input);
  const fsdp = training && zero >= 2 && layout.pp === 1;
  if (zero >= 2 && layout.pp > 1)
    layout.warnings.push(
      `ZeRO-${zero} with ${layout.pp} pipeline stages is not exported for torch: the script shards the optimizer state only (ZeRO-1, ZeroRedundancyOptimizer)`,
    );
  const blocks = layout.stages.flatMap((s) => s.layerNames.filter(isBlock)).map(rename);
  const lines = fsdp
    ? [...fsdpHead(layout, zero === 3, blocks), ...fsdpBody()]
    : [...scriptHead(layout, problem.mode, sched, splitPoints, Math.min(zero, 1)), ...scriptBody(sched)];
  if (layout.tp > 1) {
    layout.warnings.push(
      "TP_PLAN names a block's linear layers as Hugging Face Llama models do (self_attn.q_proj, mlp.down_proj, ...): rename them to your model's",
    );
  }
  const commands = torchrunCommands(layout, input, script, []);
  if (input.plan.recompute)
    layout.warnings.push(
      `the plan recomputes activations (${input.plan.recompute}): wrap each block in torch.utils.checkpoint.checkpoint (the script does not)`,
    );
  if (input.plan.optimizerOffload)
    layout.warnings.push(
      'the plan offloads the optimizer to the CPU, which torch.distributed.pipelining does not: use the DeepSpeed export, or an offloading optimizer (torchao CPUOffloadOptimizer)',
    );
  return { commands, python: lines.join('\n'), splitPoints, warnings: layout.warnings };
}

/** The script's comments, imports and constants (the plan's shape and split points). */
function scriptHead(
  layout: ExportLayout,
  mode: Mode,
  sched: string,
  splitPoints: readonly string[],
  zero: number,
): string[] {
  return [
    `# pipeDejavu plan: ${layout.pp} pipeline stage(s) x ${layout.dp} data-parallel, ${sched}, ` +
      `${layout.microbatches} microbatches of ${layout.microBatch} samples (${mode}).`,
    '# Every rank runs this file (see the torchrun lines). Fill in build_model() and make_batch().',
    "# SPLIT_SPEC names submodules: rename the plan's layer names to your model's module paths.",
    '# pipeline() traces the model with torch.export: the model must be traceable.',
    ...DIST_IMPORTS,
    'from torch.distributed.optim import ZeroRedundancyOptimizer',
    `from torch.distributed.pipelining import ${sched}, SplitPoint, pipeline`,
    'from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module',
    '',
    `PP = ${layout.pp}`,
    `DP = ${layout.dp}`,
    `TP = ${layout.tp}`,
    `N_MICROBATCHES = ${layout.microbatches}`,
    `MICROBATCH_SIZE = ${layout.microBatch}`,
    `TRAINING = ${mode === 'training' ? 'True' : 'False'}`,
    '# ZeRO-1: each data-parallel rank keeps its shard of the optimizer state (0: all of it).',
    `ZERO_STAGE = ${zero}`,
    'SPLIT_SPEC = {',
    ...splitPoints.map((n) => `    ${pythonString(n)}: SplitPoint.BEGINNING,`),
    '}',
    ...TP_PLAN,
  ];
}

/** The imports both scripts open with: torch, its distributed package and the device mesh. */
const DIST_IMPORTS: readonly string[] = [
  'import os',
  '',
  'import torch',
  'import torch.distributed as dist',
  'from torch.distributed.device_mesh import init_device_mesh',
];

/** main() of every script starts here: this rank's GPU (torchrun's LOCAL_RANK) and NCCL. */
const MAIN_START: readonly string[] = [
  'def main(steps=10):',
  '    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))',
  '    torch.cuda.set_device(device)',
  '    dist.init_process_group("nccl")',
];

/** ...and ends here, after its loop; then the entry point. */
const MAIN_END: readonly string[] = [
  '    dist.destroy_process_group()',
  '',
  '',
  'if __name__ == "__main__":',
  '    main()',
  '',
];

/** Megatron-style tensor-parallel plan of a Llama-like block, in every script that may run TP. */
const TP_PLAN: readonly string[] = [
  '# Megatron-style tensor parallelism (used when TP > 1): attention by head, the MLP by columns then rows.',
  'TP_PLAN = {',
  '    "*.self_attn.q_proj": ColwiseParallel(),',
  '    "*.self_attn.k_proj": ColwiseParallel(),',
  '    "*.self_attn.v_proj": ColwiseParallel(),',
  '    "*.self_attn.o_proj": RowwiseParallel(),',
  '    "*.mlp.gate_proj": ColwiseParallel(),',
  '    "*.mlp.up_proj": ColwiseParallel(),',
  '    "*.mlp.down_proj": RowwiseParallel(),',
  '}',
];

/** The functions a user fills in (the model, a batch) and the loss, in every training script. */
const USER_HOOKS: readonly string[] = [
  '',
  '',
  'def build_model():',
  '    raise NotImplementedError("return your torch.nn.Module")',
  '',
  '',
  'def make_batch(batch_size):',
  '    raise NotImplementedError("return (inputs, targets) for batch_size samples")',
  '',
  '',
  'def loss_fn(output, target):',
  '    return torch.nn.functional.cross_entropy(output.flatten(0, -2), target.flatten())',
];

/** The script's functions and main loop, the same for every plan but for the schedule class. */
function scriptBody(sched: string): string[] {
  return [
    ...USER_HOOKS,
    '',
    '',
    'def make_optimizer(params, mesh):',
    '    if ZERO_STAGE >= 1 and DP > 1:',
    '        return ZeroRedundancyOptimizer(',
    '            params, optimizer_class=torch.optim.AdamW, process_group=mesh.get_group("dp"), lr=1e-4',
    '        )',
    '    return torch.optim.AdamW(params, lr=1e-4)',
    '',
    '',
    ...MAIN_START,
    '    mesh = init_device_mesh("cuda", (PP, DP, TP), mesh_dim_names=("pp", "dp", "tp"))',
    '    stage_index = mesh.get_local_rank("pp")',
    '    x, _ = make_batch(MICROBATCH_SIZE * N_MICROBATCHES)',
    '    pipe = pipeline(build_model(), mb_args=(x.chunk(N_MICROBATCHES)[0],), split_spec=SPLIT_SPEC)',
    '    stage = pipe.build_stage(stage_index, device, mesh.get_group("pp"))',
    '    if TP > 1:',
    '        parallelize_module(stage.submod, mesh["tp"], TP_PLAN)',
    `    schedule = ${sched}(stage, n_microbatches=N_MICROBATCHES, loss_fn=loss_fn if TRAINING else None)`,
    '    optimizer = make_optimizer(stage.submod.parameters(), mesh) if TRAINING else None',
    '    for _ in range(steps):',
    '        x, y = make_batch(MICROBATCH_SIZE * N_MICROBATCHES)',
    '        args = (x.to(device),) if stage_index == 0 else ()',
    '        kwargs = {"target": y.to(device), "losses": []} if TRAINING and stage_index == PP - 1 else {}',
    '        if not TRAINING:',
    '            with torch.no_grad():',
    '                schedule.step(*args, **kwargs)',
    '            continue',
    '        optimizer.zero_grad()',
    '        schedule.step(*args, **kwargs)',
    '        if DP > 1:',
    '            for p in stage.submod.parameters():',
    '                if p.grad is not None:',
    '                    dist.all_reduce(p.grad, group=mesh.get_group("dp"))',
    '                    p.grad /= DP',
    '        optimizer.step()',
    ...MAIN_END,
  ];
}

/** The FSDP2 script's comments, imports and constants: the mesh, the sharding and the blocks to wrap. */
function fsdpHead(layout: ExportLayout, fullShard: boolean, blocks: readonly string[]): string[] {
  const strategy = fullShard ? 'FULL_SHARD (ZeRO-3)' : 'SHARD_GRAD_OP (ZeRO-2)';
  return [
    `# pipeDejavu plan: ${layout.dp} data-parallel x tensor-parallel ${layout.tp}, FSDP2 ${strategy}, ` +
      `${layout.microbatches} microbatches of ${layout.microBatch} samples a step (gradient accumulation).`,
    '# Every rank runs this file (see the torchrun lines). Fill in build_model() and make_batch().',
    "# SHARD_MODULES names submodules: rename the plan's layer names to your model's module paths.",
    ...DIST_IMPORTS,
    'from torch.distributed.fsdp import fully_shard',
    'from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module',
    '',
    `DP = ${layout.dp}`,
    `TP = ${layout.tp}`,
    `N_MICROBATCHES = ${layout.microbatches}`,
    `MICROBATCH_SIZE = ${layout.microBatch}`,
    "# FULL_SHARD (ZeRO-3) frees each block's gathered weights after its forward and gathers them again",
    '# for its backward; SHARD_GRAD_OP (ZeRO-2) keeps them from forward to backward.',
    `RESHARD_AFTER_FORWARD = ${fullShard ? 'True' : 'False'}`,
    'SHARD_MODULES = [',
    ...blocks.map((n) => `    ${pythonString(n)},`),
    ']',
    ...TP_PLAN,
  ];
}

/** The FSDP2 script's functions and training loop. */
function fsdpBody(): string[] {
  return [
    ...USER_HOOKS,
    '',
    '',
    ...MAIN_START,
    '    mesh = init_device_mesh("cuda", (DP, TP), mesh_dim_names=("dp", "tp"))',
    '    model = build_model().to(device)',
    '    if TP > 1:',
    '        parallelize_module(model, mesh["tp"], TP_PLAN)',
    '    for name in SHARD_MODULES:',
    '        fully_shard(model.get_submodule(name), mesh=mesh["dp"], reshard_after_forward=RESHARD_AFTER_FORWARD)',
    '    fully_shard(model, mesh=mesh["dp"], reshard_after_forward=RESHARD_AFTER_FORWARD)',
    '    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)',
    '    for _ in range(steps):',
    '        optimizer.zero_grad()',
    '        for _ in range(N_MICROBATCHES):',
    '            x, y = make_batch(MICROBATCH_SIZE)',
    '            loss = loss_fn(model(x.to(device)), y.to(device)) / N_MICROBATCHES',
    '            loss.backward()',
    '        optimizer.step()',
    ...MAIN_END,
  ];
}
