/**
 * What every engine export needs from a plan: stages with their layers and devices, one
 * tensor-parallel and one data-parallel degree, ranks in stage-major order with the tensor-parallel
 * rank innermost (rank = (stage x dp + replica) x tp + tpRank: Megatron-LM's default order,
 * DeepSpeed's pipe topology and a ("pp", "dp", "tp") device mesh), the batch split into
 * microbatches, and torchrun launch lines. Pure.
 */
import type { StackLauncher, TorchOptimizer } from '../stacks/stack-rule.js';
import type { Plan, PlanDevice, PlanProblem } from '../types.js';
import { localKey } from '../cost/links.js';
import { codePointName, isControlChar } from '../../text/control-chars.js';
import { shown } from '../../text/shown.js';
import type { FinetuneSpec } from '../../workload/finetune.js';
import type { WeightFormat } from '../../workload/generation.js';
import type { ServingLaunchInput } from './serving/serving-launch.js';
import type { ServingRequest } from './serving/serving-input.js';
import type { ExportModel } from './python/model-config.js';

export interface ExportInput {
  plan: Plan;
  problem: Pick<PlanProblem, 'layers' | 'devices' | 'mode' | 'batch' | 'zeroStage' | 'tensorOverlap'>;
  /** Compute precision (default bf16); fp8: fp8 GEMMs (Transformer Engine), bf16 elsewhere. */
  dtype?: 'bf16' | 'fp16' | 'fp32' | 'fp8';
  /** Serving: how the weights are stored (plan --weights: fp8, int8, int4, q8_0, q4_k, q4_0); absent: the dtype. */
  weights?: WeightFormat;
  /**
   * Serving a decoder (plan --mode inference on a catalog LLM or a GGUF): the engine asked, the
   * model as the user named it and the served tokens. With it an inference plan exports its
   * engine's launch line only (exportPlan's 'serving' kind); without it, the training exports.
   */
  serving?: ServingRequest;
  /**
   * The engine model's own numbers for the launch line, each replacing what servingLaunchInputOf
   * reads off the plan (e.g. { maxNumSeqs: 64, maxBatchedTokens: 8192, gpuMemoryUtilization: 0.92,
   * kvCacheDtype: 'fp8' }). The plan service passes it once the engine model prices serving.
   */
  servingLaunch?: Partial<ServingLaunchInput>;
  /**
   * The decoder the training scripts build (its config.json fields), the model as the user named it
   * and the tokens per sample; absent: the scripts ask for --config.
   */
  model?: ExportModel;
  /**
   * Training under `plan --stack`: the one launcher its stack runs (stacks/*-stack.ts `exports`);
   * job.sbatch runs it. Absent: every launcher, job.sbatch running the torch script.
   */
  launcher?: StackLauncher;
  /** The optimizer step the torch script runs (the stack rule's `optimizerStep.torch`); absent: AdamW foreach, no clipping. */
  optimizer?: TorchOptimizer;
  /** Training script the launch lines run (default per engine). */
  script?: string;
  /** Rendezvous host for several machines (default: the machine of rank 0) and port (29500). */
  masterAddr?: string;
  masterPort?: number;
  /** Module path of a plan layer in the user's model (default: the layer name). */
  moduleName?: (layerName: string) => string;
  /**
   * LoRA/QLoRA fine-tuning (plan --mode finetune): the adapters, and the model as the user named it
   * (a Hugging Face id or a folder: outside text), with the sequence length (default 2048).
   */
  finetune?: {
    spec: FinetuneSpec;
    model: string;
    seqLen?: number;
    /** The architecture's module names for spec.targets (GPT-2: c_attn, ...); absent: PEFT_MODULE_NAMES. */
    targetModules?: string[];
  };
}

export interface ExportStage {
  index: number;
  from: number;
  to: number;
  layerNames: string[];
  /** Repeated blocks ("block.7", "layers.7": names ending in ".<n>") on the stage. */
  blocks: number;
  devices: PlanDevice[];
}

export interface ExportRank {
  rank: number;
  stage: number;
  replica: number;
  /** Position in the replica's tensor-parallel group (0 without tensor parallelism). */
  tpRank: number;
  device: PlanDevice;
}

export interface ExportLayout {
  stages: ExportStage[];
  pp: number;
  /** Data-parallel degree: a stage's replicas over the context-parallel degree. */
  dp: number;
  /** Tensor-parallel degree of every stage. */
  tp: number;
  /** Context-parallel degree (Megatron-LM's; 1 for the other engines, which run those replicas as data parallel). */
  cp: number;
  ranks: ExportRank[];
  microbatches: number;
  /** Samples per microbatch per data-parallel replica. */
  microBatch: number;
  /** microBatch x microbatches x dp: the batch the engine will run. */
  globalBatch: number;
  warnings: string[];
}

const isBlock = (layerName: string): boolean => /\.\d+$/.test(layerName);

/** The ZeRO stage to export: the plan's (the ranking sets it), else its problem's; 0 for inference. */
export function exportZeroStage(input: Pick<ExportInput, 'plan' | 'problem'>): 0 | 1 | 2 | 3 {
  if (input.problem.mode !== 'training') return 0;
  return input.plan.zeroStage ?? input.problem.zeroStage;
}

export function cudaIndex(d: PlanDevice): number | null {
  const m = /^cuda:(\d+)$/.exec(localKey(d));
  return m ? Number(m[1]) : null;
}

/** Stages, ranks and batch split; `engine` names the engine in warnings, `nccl` flags CPU stages. */
export function exportLayout(input: ExportInput, engine: string, nccl = true): ExportLayout {
  const { plan, problem } = input;
  const byId = new Map(problem.devices.map((d) => [d.id, d]));
  const warnings: string[] = [];
  const stages: ExportStage[] = plan.stages.map((s, index) => {
    const layerNames = problem.layers.slice(s.from, s.to).map((l) => l.name);
    const devices = s.devices.map((id) => {
      const d = byId.get(id);
      if (!d) throw new Error(`plan stage ${index} names device ${id}, which the problem does not list`);
      return d;
    });
    return { index, from: s.from, to: s.to, layerNames, blocks: layerNames.filter(isBlock).length, devices };
  });
  const { tp, dp: replicas } = uniformDegrees(plan, engine, warnings);
  const cp = contextDegree(plan, replicas, engine, warnings);
  const dp = replicas / cp;
  if ((plan.virtualStages ?? 1) > 1 && engine !== 'Megatron-LM')
    warnings.push(
      `the plan interleaves ${plan.virtualStages} virtual stages a rank (Megatron-LM's schedule); ${engine} runs each stage as one chunk, with a larger bubble`,
    );
  const ranks: ExportRank[] = [];
  stages.forEach((s) => {
    s.devices
      .slice(0, replicas * tp)
      .forEach((device, i) =>
        ranks.push({ rank: ranks.length, stage: s.index, replica: Math.floor(i / tp), tpRank: i % tp, device }),
      );
  });
  if (nccl) {
    for (const s of stages) {
      const cpus = s.devices.filter((d) => d.kind === 'cpu').map((d) => d.id);
      if (cpus.length > 0) {
        warnings.push(
          `${engine} runs NCCL, which cannot include a CPU: stage ${s.index} is on ${cpus.map(commentText).join(', ')}`,
        );
      }
    }
  }
  const microbatches = Math.max(1, plan.microbatches);
  const exact = problem.batch / (microbatches * dp);
  const microBatch = Math.max(1, Math.floor(exact));
  const globalBatch = microBatch * microbatches * dp;
  if (globalBatch !== problem.batch) {
    warnings.push(
      `batch ${problem.batch} does not split into ${microbatches} microbatches x ${dp} replicas evenly (${exact.toFixed(2)} samples each); ` +
        `${engine} takes equal microbatches: ${microBatch} samples, batch ${globalBatch}`,
    );
  }
  return { stages, pp: stages.length, dp, tp, cp, ranks, microbatches, microBatch, globalBatch, warnings };
}

/**
 * The context-parallel degree an engine runs: the plan's under Megatron-LM (when it divides the
 * replicas exported); 1 for the others, which run whole samples on every replica, with a warning.
 * Expert parallelism beyond the tensor-parallel group is Megatron-LM's export only, said the same way.
 */
function contextDegree(plan: Plan, replicas: number, engine: string, warnings: string[]): number {
  const cp = plan.contextParallel ?? 1;
  const megatron = engine === 'Megatron-LM';
  if (plan.expertParallel !== undefined && !megatron)
    warnings.push(
      `the plan spreads the experts over ${plan.expertParallel} GPUs (Megatron-LM's --expert-model-parallel-size); ${engine}'s export does not`,
    );
  if (cp <= 1) return 1;
  if (megatron && replicas % cp === 0) return cp;
  warnings.push(
    megatron
      ? `the plan splits each sample over cp=${cp} GPUs, but the export keeps ${replicas} replica(s) a stage: context parallelism left out`
      : `the plan splits each sample's tokens over cp=${cp} GPUs (context parallelism, Megatron-LM's); ${engine} runs whole samples on each, as data parallelism, with cp times the activations`,
  );
  return 1;
}

/**
 * The one tensor-parallel and data-parallel degree engines run on every stage. When the plan's
 * stages differ, the smallest tensor-parallel degree and one replica are exported, with a warning.
 */
function uniformDegrees(plan: Plan, engine: string, warnings: string[]): { tp: number; dp: number } {
  const tps = plan.stages.map((s) => s.tp ?? 1);
  let tp = tps[0] ?? 1;
  if (tps.some((t) => t !== tp)) {
    tp = Math.min(...tps);
    warnings.push(
      `${engine} runs one tensor-parallel degree on every stage; the plan has ${tps.join(', ')}. The export uses ${tp}.`,
    );
  }
  const dps = plan.stages.map((s) => Math.floor(s.devices.length / tp));
  let dp = dps[0] ?? 1;
  if (dps.some((n) => n !== dp)) {
    const sizes = plan.stages.map((s) => s.devices.length).join(', ');
    warnings.push(
      `${engine} runs one data-parallel degree on every stage; the plan has ${sizes} devices per stage. ` +
        `The export uses the first ${tp === 1 ? 'device' : `${tp} devices`} of each stage (dp 1).`,
    );
    dp = 1;
  }
  return { tp, dp };
}

/*
 * Text from outside (machine labels, hostnames, device names, layer and workload names: from a
 * profile or a model someone handed over) is data in every emitted file. One home for the rules:
 * a shell word is quoted (shellQuote, shellDoubleQuote), a Python string is an escaped literal
 * (pythonString), a name in a comment or a note loses its control characters (commentText), and a
 * name that must be a bare token (a Slurm node, a hostfile host) is refused when it is not one
 * (slurmNodeNameRefusal). No emitter interpolates outside text any other way.
 */

/** Longest outside name a comment or note quotes whole. */
const COMMENT_NAME_MAX = 200;

/**
 * A name for a comment (shell, Python) or a note (README.txt, warnings): one line, its control,
 * format and separator characters written as visible escapes (\n, \u2028), cut to
 * COMMENT_NAME_MAX characters with an ellipsis.
 */
export function commentText(s: string): string {
  return oneLine(cutName(s));
}

/** A note of any length (a warning, a README line) on one line: control, format and separator characters as visible escapes. */
export function oneLine(s: string): string {
  return shown(s);
}

/** A name in a one-line message: double-quoted as JSON quotes it, cut and on one line. */
export function quotedName(s: string): string {
  return oneLine(JSON.stringify(cutName(s)));
}

function cutName(s: string): string {
  const chars = [...s];
  return chars.length > COMMENT_NAME_MAX ? `${chars.slice(0, COMMENT_NAME_MAX).join('')}…` : s;
}

/**
 * A double-quoted Python string literal of `s`, in printable ASCII: JSON's escapes (which Python
 * reads alike), \uXXXX for the rest of the BMP and \UXXXXXXXX beyond it.
 */
export function pythonString(s: string): string {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/gu, (c) => {
    const cp = c.codePointAt(0) ?? 0;
    return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A double-quoted YAML scalar of `s`: YAML's double-quoted style reads the escapes pythonString
 * writes (\", \\, \n, \uXXXX, \UXXXXXXXX), and printable ASCII leaves no line break or
 * separator for a YAML reader to split on.
 */
export function yamlString(s: string): string {
  return pythonString(s);
}

/** Longest Slurm node name (a DNS name). */
const NODE_NAME_MAX = 253;

/**
 * Why `name` cannot be a Slurm node name or a hostfile host, or null when it can: letters, digits,
 * ".", "_" and "-", not starting with "-", at most NODE_NAME_MAX characters. Such a name goes into
 * #SBATCH directives, shell `case` patterns and the hostfile bare, so anything else is refused.
 */
export function slurmNodeNameRefusal(name: string): string | null {
  if (name.length === 0) return 'empty';
  if (name.length > NODE_NAME_MAX) return `${name.length} characters, over ${NODE_NAME_MAX}`;
  for (const c of name) {
    if (/[A-Za-z0-9._-]/.test(c)) continue;
    if (isControlChar(c)) return `control character ${codePointName(c)}`;
    if (/\s/u.test(c)) return 'a space';
    return `the character ${JSON.stringify(c)}`;
  }
  return name.startsWith('-') ? 'a leading "-"' : null;
}

/** A shell word: bare when safe, else single-quoted (a NUL, which no shell word can hold, written as \0). */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/\0/g, '\\0').replace(/'/g, `'\\''`)}'`;
}

/** A double-quoted shell word, for text a person reads and may paste: `"`, `$`, backquote and backslash escaped. */
export function shellDoubleQuote(s: string): string {
  return `"${s.replace(/["$`\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * One torchrun line per machine, in rank order; GPUs chosen with CUDA_VISIBLE_DEVICES in
 * nvidia-smi order (CUDA_DEVICE_ORDER=PCI_BUS_ID), so local rank i runs on the i-th listed GPU.
 * Flags under their underscore spellings, the only ones torch 1.x's torchrun takes (2.x takes both).
 */
export function torchrunCommands(
  layout: ExportLayout,
  input: ExportInput,
  script: string,
  args: readonly string[],
): string[] {
  const warnings = layout.warnings;
  const machines: { name: string; ranks: ExportRank[] }[] = [];
  for (const r of layout.ranks) {
    const last = machines[machines.length - 1];
    if (last?.name === r.device.machine) last.ranks.push(r);
    else machines.push({ name: r.device.machine, ranks: [r] });
  }
  if (new Set(machines.map((m) => m.name)).size !== machines.length) {
    warnings.push(
      `ranks of one machine are not contiguous in stage order (${layout.ranks.map((r) => commentText(r.device.machine)).join(', ')}); ` +
        `torchrun numbers each machine's ranks contiguously: reorder the stages or map ranks yourself`,
    );
  }
  const tail = [script, ...args].map(shellQuote).join(' ');
  const master = input.masterAddr ?? machines[0]?.name ?? 'localhost';
  const unindexed = new Set<string>();
  return machines.map((m, nodeRank) => {
    const indices = m.ranks.map((r) => cudaIndex(r.device));
    const known = indices.every((i) => i !== null);
    // A machine whose ranks are not contiguous appears more than once here: say it once.
    if (!known && !unindexed.has(m.name)) {
      unindexed.add(m.name);
      warnings.push(
        `${commentText(m.name)}: devices without a CUDA index (virtual or CPU); set CUDA_VISIBLE_DEVICES yourself`,
      );
    }
    const env = known ? `CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=${indices.join(',')} ` : '';
    const launch =
      machines.length === 1
        ? `torchrun --standalone --nnodes 1 --nproc_per_node ${m.ranks.length}`
        : `torchrun --nnodes ${machines.length} --node_rank ${nodeRank} --nproc_per_node ${m.ranks.length} ` +
          `--master_addr ${shellQuote(master)} --master_port ${input.masterPort ?? 29500}`;
    return `${env}${launch} ${tail}`;
  });
}
