/**
 * A plan as a Hugging Face accelerate config (`accelerate launch --config_file accelerate.yaml`):
 * ZeRO-2/3 as FSDP (fsdp_sharding_strategy SHARD_GRAD_OP / FULL_SHARD; HYBRID_SHARD for hybrid
 * sharding, whose shard group accelerate takes as a machine's GPUs), ZeRO-1 (or an offloaded
 * optimizer) as DeepSpeed with its zero_stage, plain data parallelism as MULTI_GPU. accelerate
 * runs data parallelism only: a plan with pipeline or tensor-parallel stages is exported with a
 * warning. Outside text (the master machine's name) is a quoted YAML string. Pure.
 */
import { exportLayout, exportZeroStage, yamlString, type ExportInput, type ExportLayout } from './common.js';
import { planScript, TRAIN_SCRIPTS } from './python/train-script.js';

export interface AccelerateExport {
  /** accelerate.yaml. */
  yaml: string;
  /** accelerate launch line of the first machine (machine_rank 0; the others set --machine_rank). */
  command: string;
  /** train_accelerate.py, the script the command runs: the decoder prepared as accelerate.yaml says. */
  script: string;
  warnings: string[];
}

const FSDP_STRATEGY = { 2: 'SHARD_GRAD_OP', 3: 'FULL_SHARD' } as const;

export function exportAccelerate(input: ExportInput): AccelerateExport {
  const layout = exportLayout(input, 'accelerate');
  const warnings = layout.warnings;
  const zero = exportZeroStage(input);
  const offload = input.plan.optimizerOffload === true && input.problem.mode === 'training';
  if (layout.pp > 1 || layout.tp > 1)
    warnings.push(
      `accelerate runs data parallelism only: the plan's ${layout.pp} pipeline stage(s) x tensor-parallel ${layout.tp} need the DeepSpeed, Megatron or torch export`,
    );
  if (input.problem.mode !== 'training') warnings.push('the accelerate config is for training');
  const machines = [...new Set(layout.ranks.map((r) => r.device.machine))];
  const hybrid = zero === 3 && !offload ? input.plan.shardGroup : undefined;
  if (hybrid !== undefined && hybrid * machines.length !== layout.ranks.length)
    warnings.push(
      `accelerate's HYBRID_SHARD shards over each machine's GPUs; the plan's shard groups are of ${hybrid} (the torch export runs them)`,
    );
  const master = input.masterAddr ?? machines[0] ?? 'localhost';
  const lines = [
    'compute_environment: LOCAL_MACHINE',
    ...distributedLines(zero, offload, layout, hybrid !== undefined),
    // "no" quoted: YAML 1.1 (PyYAML, which accelerate reads its config with) takes a bare no for false.
    `mixed_precision: ${input.dtype === 'fp32' ? '"no"' : (input.dtype ?? 'bf16')}`,
    `num_machines: ${machines.length}`,
    `num_processes: ${layout.ranks.length}`,
    'machine_rank: 0',
    `main_process_ip: ${yamlString(master)}`,
    `main_process_port: ${input.masterPort ?? 29500}`,
    'rdzv_backend: static',
    'same_network: true',
    'use_cpu: false',
    '',
  ];
  const command = `accelerate launch --config_file accelerate.yaml ${input.script ?? TRAIN_SCRIPTS.accelerate.file}`;
  const script = planScript('accelerate', input, layout, command);
  return { yaml: lines.join('\n'), command, script, warnings };
}

/** distributed_type and its section: FSDP for ZeRO-2/3, DeepSpeed for ZeRO-1 or an offload, else MULTI_GPU. */
function distributedLines(zero: 0 | 1 | 2 | 3, offload: boolean, layout: ExportLayout, hybrid: boolean): string[] {
  if (zero >= 2 && !offload) {
    return [
      'distributed_type: FSDP',
      'fsdp_config:',
      '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP',
      '  fsdp_backward_prefetch: BACKWARD_PRE',
      '  fsdp_forward_prefetch: true',
      '  fsdp_offload_params: false',
      `  fsdp_sharding_strategy: ${hybrid ? 'HYBRID_SHARD' : FSDP_STRATEGY[zero as 2 | 3]}`,
      '  fsdp_state_dict_type: SHARDED_STATE_DICT',
      '  fsdp_use_orig_params: true',
    ];
  }
  if (zero >= 1 || offload) {
    return [
      'distributed_type: DEEPSPEED',
      'deepspeed_config:',
      `  gradient_accumulation_steps: ${layout.microbatches}`,
      `  offload_optimizer_device: ${offload ? 'cpu' : 'none'}`,
      '  offload_param_device: none',
      `  zero_stage: ${Math.max(1, zero)}`,
    ];
  }
  return [layout.ranks.length > 1 ? 'distributed_type: MULTI_GPU' : 'distributed_type: "NO"'];
}
