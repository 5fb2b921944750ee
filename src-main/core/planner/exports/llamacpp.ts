/**
 * A plan as a llama.cpp inference command: layer split (-sm layer) with -ts in proportion to the
 * blocks each GPU holds, or for one tensor-parallel stage row split (-sm row: every matrix split
 * over the GPUs, -ts equal shares), GPUs ordered by stage through CUDA_VISIBLE_DEVICES (llama.cpp fills
 * devices in order), -ngl the layers offloaded (llama.cpp keeps the first layers on the CPU and
 * offloads the last -ngl; one more than the blocks also offloads the output layer). Pure.
 */
import { commentText, cudaIndex, exportLayout, shellQuote, type ExportInput } from './common.js';

export interface LlamaCppExport {
  args: string[];
  env: Record<string, string>;
  command: string;
  warnings: string[];
}

export interface LlamaCppOptions {
  /** GGUF file (default model.gguf). */
  model?: string;
  /** llama-server (default), llama-cli, ... */
  binary?: string;
}

export function exportLlamaCpp(input: ExportInput, opts: LlamaCppOptions = {}): LlamaCppExport {
  const layout = exportLayout(input, 'llama.cpp', false);
  const warnings = layout.warnings;
  if (input.problem.mode !== 'inference') warnings.push('llama.cpp runs inference only; the plan is for training');
  if (layout.microbatches > 1) {
    warnings.push(
      `llama.cpp pipelines its own micro-batches (-ub); the plan's ${layout.microbatches} microbatches are not passed`,
    );
  }
  if (layout.dp > 1) warnings.push('llama.cpp has no data parallelism: the export uses the first device of each stage');
  const machines = [...new Set(layout.stages.flatMap((s) => s.devices.map((d) => d.machine)))];
  if (machines.length > 1) {
    warnings.push(
      `stages on machines ${machines.map(commentText).join(', ')}: llama.cpp needs its RPC backend (--rpc) for that; not generated`,
    );
  }
  const stages = layout.stages.map((s) => ({ ...s, device: s.devices[0] }));
  const firstGpu = stages.findIndex((s) => s.device?.kind === 'gpu');
  const gpuStages = firstGpu < 0 ? [] : stages.slice(firstGpu);
  if (gpuStages.some((s) => s.device?.kind !== 'gpu')) {
    warnings.push('a CPU stage after a GPU stage: llama.cpp keeps only the first layers on the CPU');
  }
  const gpus = gpuStages.filter((s) => s.device?.kind === 'gpu');
  const blocks = layout.stages.reduce((a, s) => a + s.blocks, 0);
  const gpuBlocks = gpus.reduce((a, s) => a + s.blocks, 0);
  const lastOnGpu = stages[stages.length - 1]?.device?.kind === 'gpu';
  const ngl = gpuBlocks + (lastOnGpu && gpuBlocks === blocks ? 1 : 0);
  if (lastOnGpu && gpuBlocks < blocks) {
    warnings.push(
      'with blocks on the CPU, llama.cpp also keeps the output layer on the CPU (it offloads it only with every block)',
    );
  }
  const indices = gpus.map((s) => (s.device ? cudaIndex(s.device) : null));
  const env: Record<string, string> = {};
  if (machines.length === 1 && gpus.length > 0 && indices.every((i) => i !== null)) {
    env.CUDA_DEVICE_ORDER = 'PCI_BUS_ID';
    env.CUDA_VISIBLE_DEVICES = indices.join(',');
  } else if (machines.length === 1 && gpus.length > 0) {
    warnings.push('devices without a CUDA index (virtual): set CUDA_VISIBLE_DEVICES to the GPUs in stage order');
  }
  const args = ['-m', opts.model ?? 'model.gguf', '-ngl', String(ngl)];
  const rowSplit = layout.tp > 1 && layout.pp === 1 && gpus.length === 1;
  if (layout.tp > 1 && !rowSplit) {
    warnings.push(
      'llama.cpp splits either by layer or by row, not both: the tensor-parallel stages run on their first GPU (-sm layer)',
    );
  }
  if (rowSplit) {
    const group = layout.ranks.filter((r) => r.replica === 0).map((r) => r.device);
    const rows = group.map((d) => cudaIndex(d));
    if (machines.length === 1 && rows.every((i) => i !== null)) env.CUDA_VISIBLE_DEVICES = rows.join(',');
    // -sm row: the main GPU holds the KV cache and the small tensors; the first of the group.
    args.push('-sm', 'row', '-ts', group.map(() => 1).join(','), '--main-gpu', '0');
  } else if (gpus.length > 0) {
    // -sm layer: main-gpu only matters for -sm none/row; the first listed GPU.
    args.push('-sm', 'layer', '-ts', gpus.map((s) => s.blocks).join(','), '--main-gpu', '0');
  }
  const envText = Object.entries(env)
    .map(([k, v]) => `${k}=${shellQuote(v)} `)
    .join('');
  const quantType = input.weights ? GGUF_TYPES[input.weights] : undefined;
  if (quantType)
    warnings.push(`weights as ${quantType}: make the GGUF with llama-quantize model-f16.gguf model.gguf ${quantType}`);
  else if (input.weights)
    warnings.push(`llama.cpp has no ${input.weights} format: q8_0, q4_k or q4_0 weights are what it runs quantized`);
  const command = `${envText}${[opts.binary ?? 'llama-server', ...args].map(shellQuote).join(' ')}`;
  return { args, env, command, warnings };
}

/** llama-quantize's type names of the plan's weight formats. */
const GGUF_TYPES: Record<string, string> = {
  q8_0: 'Q8_0',
  q4_k: 'Q4_K_M',
  q4_0: 'Q4_0',
  fp16: 'F16',
  bf16: 'BF16',
  fp32: 'F32',
};
