/**
 * What the launch lines share: the launch itself with its shell line (environment first, every
 * word quoted), the GPUs as CUDA_VISIBLE_DEVICES, the machines a plan spans and the warnings of an
 * engine that runs on one, a format's flags from its engine's table, and the GGUF file a format
 * names. Pure.
 */
import { commentText, cudaIndex, shellQuote } from '../common.js';
import type { PlanDevice } from '../../types.js';
import type { WeightFormat } from '../../../workload/generation.js';
import type { ServingLaunch, ServingLaunchInput } from './serving-launch.js';

/** `NAME=value ... program args`, every word quoted (shellQuote). */
function shellLine(env: Record<string, string>, argv: readonly string[]): string {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...assignments, ...argv.map(shellQuote)].join(' ');
}

/** The compute dtype as PyTorch names it: vLLM's, SGLang's and TGI's --dtype, the transformers script's torch.NAME. */
export const DTYPE_NAMES = { bf16: 'bfloat16', fp16: 'float16', fp32: 'float32' } as const;

/** What a launch is made of: the program's own words (`vllm serve`), then its arguments; no files unless given. */
export interface LaunchParts extends Omit<ServingLaunch, 'command' | 'files'> {
  program: readonly string[];
  files?: ServingLaunch['files'];
}

/** The launch, its shell line the environment's assignments then the program and its arguments. */
export function launchOf(parts: LaunchParts): ServingLaunch {
  const { engine, version, program, args, env, files = [], warnings } = parts;
  return { engine, version, command: shellLine(env, [...program, ...args]), args, env, files, warnings };
}

/** The machines of the devices, in rank order. */
export function machinesOf(devices: readonly PlanDevice[]): string[] {
  return [...new Set(devices.map((d) => d.machine))];
}

/**
 * CUDA_VISIBLE_DEVICES for GPUs of one machine in the order given (nvidia-smi's order through
 * CUDA_DEVICE_ORDER=PCI_BUS_ID), or a warning when a device has no CUDA index.
 */
export function visibleGpus(devices: readonly PlanDevice[], warnings: string[]): Record<string, string> {
  const gpus = devices.filter((d) => d.kind === 'gpu');
  if (gpus.length === 0 || machinesOf(gpus).length > 1) return {};
  const indices = gpus.map(cudaIndex);
  if (indices.some((i) => i === null)) {
    warnings.push('devices without a CUDA index (virtual): set CUDA_VISIBLE_DEVICES to the GPUs in rank order');
    return {};
  }
  return { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: indices.join(',') };
}

/** Warnings every engine shares: several GPU types balanced as one, CPUs in a GPU engine's plan. */
export function deviceWarnings(title: string, devices: readonly PlanDevice[], warnings: string[]): void {
  const types = [...new Set(devices.map((d) => d.name))];
  if (types.length > 1)
    warnings.push(
      `${title} balances work as if every GPU were alike; the plan runs on ${types.map(commentText).join(', ')}`,
    );
}

/**
 * The warnings of an engine that serves one replica on one machine, each in its own words and in
 * this order: the plan's replicas (`replicas`, each to start on its own), its machines (`ranks on
 * machines a, b: ` and `machines`), a CPU among its devices (`cpu`, where the engine says one).
 */
export function oneMachineWarnings(
  input: ServingLaunchInput,
  warnings: string[],
  says: { replicas: string; machines: string; cpu?: string },
): void {
  if (input.replicas > 1) warnings.push(says.replicas);
  const machines = machinesOf(input.devices);
  if (machines.length > 1) warnings.push(`ranks on machines ${machines.map(commentText).join(', ')}: ${says.machines}`);
  if (says.cpu !== undefined && input.devices.some((d) => d.kind === 'cpu')) warnings.push(says.cpu);
}

/** A weight format's flags on an engine, and the note on the checkpoint it wants (a warning). */
export interface FormatFlags {
  flags: readonly string[];
  note?: string;
}

/** An engine's flags by weight format; a format it does not list takes none. */
export type FormatTable = Partial<Record<WeightFormat, FormatFlags>>;

/** The flags of the served format in its engine's table, its note added to the warnings. */
export function formatFlags(table: FormatTable, weights: WeightFormat, warnings: string[]): readonly string[] {
  const entry = table[weights];
  if (entry?.note !== undefined) warnings.push(entry.note);
  return entry?.flags ?? [];
}

/** The first device of each pipeline stage (devices in rank order: stage-major, replicas, tensor-parallel rank). */
export function stageLeads(devices: readonly PlanDevice[], pp: number, tp: number, replicas: number): PlanDevice[] {
  return Array.from({ length: pp }, (_, s) => devices[s * tp * replicas]).filter((d): d is PlanDevice => !!d);
}

/** llama-quantize's type names of the weight formats. */
export const GGUF_TYPES: Partial<Record<WeightFormat, string>> = {
  q8_0: 'Q8_0',
  q4_k: 'Q4_K_M',
  q4_0: 'Q4_0',
  fp16: 'F16',
  bf16: 'BF16',
  fp32: 'F32',
};

/** The GGUF file a launch line loads: the model when it is one, else `<its last path part>-<TYPE>.gguf`. */
export function ggufFile(model: string, type: string): string {
  if (/\.gguf$/i.test(model)) return model;
  const base =
    model
      .replace(/[/\\]+$/, '')
      .split(/[/\\]/)
      .pop() ?? 'model';
  return `${base || 'model'}-${type}.gguf`;
}

/**
 * How to make that GGUF file from a Hugging Face checkpoint (llama.cpp's convert_hf_to_gguf.py,
 * then llama-quantize), as a note: the names in it are comment text.
 */
export function ggufRecipe(model: string, type: string): string {
  const file = ggufFile(model, type);
  if (file === model) return `${commentText(model)}: its weights must already be ${type}`;
  const f16 = ggufFile(model, 'F16');
  return (
    `weights as ${type}: make ${commentText(file)} from ${commentText(model)} first: ` +
    `python convert_hf_to_gguf.py MODEL_DIR --outtype f16 --outfile ${commentText(f16)}` +
    (type === 'F16' ? '' : `; llama-quantize ${commentText(f16)} ${commentText(file)} ${type}`)
  );
}

/** A fraction as a short decimal word (0.9, not 0.9000000000000001). */
export function fraction(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

/** The devices of one replica in rank order: its tensor-parallel group on each stage. */
export function replicaDevices(
  devices: readonly PlanDevice[],
  pp: number,
  tp: number,
  replicas: number,
  replica = 0,
): PlanDevice[] {
  return Array.from({ length: pp }, (_, s) =>
    devices.slice((s * replicas + replica) * tp, (s * replicas + replica + 1) * tp),
  ).flat();
}
