/**
 * A plan as a vLLM serving command: `vllm serve` with --tensor-parallel-size and
 * --pipeline-parallel-size (and --data-parallel-size for replicas), uneven stages through
 * VLLM_PP_LAYER_PARTITION (decoder layers per stage), GPUs in rank order through
 * CUDA_VISIBLE_DEVICES, and Ray for a plan over several machines. Pure.
 */
import { commentText, cudaIndex, exportLayout, shellQuote, type ExportInput } from './common.js';

export interface VllmExport {
  args: string[];
  env: Record<string, string>;
  command: string;
  warnings: string[];
}

export interface VllmOptions {
  /** Model path or Hugging Face id (default: the workload's name). */
  model?: string;
}

export function exportVllm(input: ExportInput, opts: VllmOptions = {}): VllmExport {
  const layout = exportLayout(input, 'vLLM');
  const warnings = layout.warnings;
  if (input.problem.mode !== 'inference') warnings.push('vLLM serves models; the plan is for training');
  const types = [...new Set(layout.ranks.map((r) => r.device.name))];
  if (types.length > 1) {
    warnings.push(
      `vLLM balances work as if every GPU were alike; the plan runs on ${types.map(commentText).join(', ')}`,
    );
  }
  const args = [opts.model ?? 'MODEL', '--tensor-parallel-size', String(layout.tp)];
  args.push(...vllmPrecision(input, warnings));
  args.push('--pipeline-parallel-size', String(layout.pp));
  if (layout.dp > 1) args.push('--data-parallel-size', String(layout.dp));
  if (layout.tp > 1 && input.problem.layers.some((l) => l.tensor?.experts !== undefined)) {
    args.push('--enable-expert-parallel');
  }
  const machines = [...new Set(layout.ranks.map((r) => r.device.machine))];
  if (machines.length > 1) {
    args.push('--distributed-executor-backend', 'ray');
    warnings.push(
      `ranks on machines ${machines.map(commentText).join(', ')}: start a Ray cluster over them first (ray start --head, ray start --address); ` +
        'vLLM places the ranks itself',
    );
  }
  const env: Record<string, string> = {};
  const counts = layout.stages.map((s) => s.blocks);
  const empty = layout.stages.filter((s) => s.blocks === 0).map((s) => s.index);
  if (layout.pp > 1 && empty.length > 0) {
    warnings.push(
      `stage ${empty.join(', ')} holds no decoder layer (only embeddings or the head): vLLM places those with the first and last stages; move a layer there or drop the stage`,
    );
  }
  if (layout.pp > 1 && counts.some((c) => c !== counts[0])) env.VLLM_PP_LAYER_PARTITION = counts.join(',');
  const indices = layout.ranks.map((r) => cudaIndex(r.device));
  if (machines.length === 1 && indices.every((i) => i !== null)) {
    env.CUDA_DEVICE_ORDER = 'PCI_BUS_ID';
    env.CUDA_VISIBLE_DEVICES = indices.join(',');
  } else if (machines.length === 1) {
    warnings.push('devices without a CUDA index (virtual): set CUDA_VISIBLE_DEVICES to the GPUs in rank order');
  }
  if (layout.ranks.some((r) => r.device.kind === 'cpu')) {
    warnings.push('vLLM runs a model on GPUs or on CPUs, not on both: a stage of the plan is on a CPU');
  }
  const envText = Object.entries(env)
    .map(([k, v]) => `${k}=${shellQuote(v)} `)
    .join('');
  const command = `${envText}${['vllm', 'serve', ...args].map(shellQuote).join(' ')}`;
  return { args, env, command, warnings };
}

const VLLM_DTYPE = { bf16: 'bfloat16', fp16: 'float16', fp32: 'float32', fp8: 'bfloat16' } as const;

/**
 * vLLM's --dtype and --quantization for the plan's dtype and weights: fp8 weights (or an fp8
 * model) are quantized on load (--quantization fp8); int4 is an AWQ or GPTQ checkpoint (vLLM reads
 * which from its config; awq is written, gptq for a GPTQ one); llama.cpp's block formats are a
 * GGUF file, which vLLM loads as the model; int8 is a W8A8 checkpoint, whose config vLLM reads.
 */
function vllmPrecision(input: ExportInput, warnings: string[]): string[] {
  const args = ['--dtype', VLLM_DTYPE[input.dtype ?? 'bf16']];
  const w = input.weights ?? (input.dtype === 'fp8' ? 'fp8' : undefined);
  if (w === 'fp8') args.push('--quantization', 'fp8');
  else if (w === 'int4') {
    args.push('--quantization', 'awq');
    warnings.push('int4 weights: an AWQ checkpoint as MODEL (for a GPTQ one, --quantization gptq)');
  } else if (w === 'int8') warnings.push('int8 weights: give a W8A8 (compressed-tensors) checkpoint as MODEL');
  else if (w === 'q8_0' || w === 'q4_k' || w === 'q4_0')
    warnings.push(
      `${w} weights: give the GGUF file as MODEL (vLLM's GGUF support is experimental; llama.cpp runs it natively)`,
    );
  return args;
}
