/**
 * A LoRA/QLoRA fine-tuning plan as people run it: a PEFT + transformers Trainer script
 * (train_lora.py), its launch lines, and an axolotl config. How each plan kind is launched:
 * - one GPU: `python train_lora.py`;
 * - data parallel: torchrun (DDP), or `accelerate launch` with an accelerate config when the plan
 *   shards (ZeRO-2/3 as FSDP over the frozen base, ZeRO-1 or an offloaded optimizer as DeepSpeed;
 *   the config comes from accelerate.ts);
 * - pipeline or tensor-parallel stages: PEFT and the Trainer do not pipeline, so on one machine the
 *   model is split over the plan's GPUs in one process (device_map="auto", stages one after
 *   another) and across machines the launch is data parallel; both are said in the warnings.
 * The model id or folder is outside text: a Python literal (pythonString), a YAML scalar
 * (yamlString), a comment line (commentText); no launch line names it. Pure.
 */
import { FINETUNE_STACKS, PEFT_MODULE_NAMES, type FinetuneSpec } from '../../workload/finetune.js';
import { count } from '../../text/plural.js';
import { exportAccelerate } from './accelerate.js';
import {
  commentText,
  cudaIndex,
  exportLayout,
  pythonString,
  shellQuote,
  torchrunCommands,
  yamlString,
  type ExportInput,
  type ExportLayout,
  type ExportRank,
} from './common.js';

export interface FinetuneExport {
  /** train_lora.py: LoraConfig (and BitsAndBytesConfig for QLoRA) with the plan's batch split. */
  peftConfig: string;
  /** Launch lines, one per machine (launch_lora.sh). */
  launch: string[];
  /** accelerate_lora.yaml, which the launch lines name when the plan shards; else null. */
  accelerateYaml: string | null;
  /** axolotl.yaml (`axolotl train axolotl.yaml`). */
  axolotlYaml: string;
  /** How train_lora.py is launched: one process (python, or split over the GPUs), torchrun, or accelerate launch. */
  launcher: FinetuneLauncher;
  /** What PEFT, the Trainer and axolotl cannot express of the plan. */
  warnings: string[];
}

export const FINETUNE_SCRIPT = 'train_lora.py';
/** The Python packages train_lora.py imports (QLoRA adds bitsandbytes); it names those missing in one line. */
const FINETUNE_PACKAGES = ['torch', 'transformers', 'peft', 'datasets', 'accelerate'] as const;
export const FINETUNE_ACCELERATE_CONFIG = 'accelerate_lora.yaml';
const DEFAULT_FINETUNE_SEQ = 2048;

/** python: one process on one GPU; split: one process over several (device_map="auto"). */
export type FinetuneLauncher = 'python' | 'split' | 'torchrun' | 'accelerate';
type Launcher = FinetuneLauncher;
type Sharding = 'none' | 'fsdp' | 'deepspeed';

interface Setup {
  spec: FinetuneSpec;
  /** PEFT target_modules: the architecture's names, else PEFT_MODULE_NAMES of the targets. */
  modules: string[];
  model: string;
  seqLen: number;
  layout: ExportLayout;
  launcher: Launcher;
  sharding: Sharding;
  zero: 0 | 1 | 2 | 3;
  offload: boolean;
  recompute: boolean;
  precision: 'bf16' | 'fp16';
}

export function exportFinetune(input: ExportInput): FinetuneExport | null {
  const ft = input.finetune;
  if (!ft) return null;
  const layout = exportLayout(input, 'PEFT with the Trainer');
  const warnings = layout.warnings;
  const setup = decide(input, layout, warnings);
  if (ft.spec.stack !== 'peft')
    warnings.push(
      `the plan's memory is ${FINETUNE_STACKS[ft.spec.stack].title}'s; train_lora.py and axolotl.yaml run PEFT with the Trainer, which holds more (fp32 adapters and Adam state, full logits): run the plan with ${FINETUNE_STACKS[ft.spec.stack].title}, or plan with --stack peft`,
    );
  const accelerateYaml = setup.launcher === 'accelerate' ? finetuneAccelerateYaml(input, setup) : null;
  return {
    peftConfig: trainScript(setup),
    launch: launchLines(input, setup),
    accelerateYaml,
    axolotlYaml: axolotlYaml(setup, warnings),
    launcher: setup.launcher,
    warnings,
  };
}

function decide(input: ExportInput, layout: ExportLayout, warnings: string[]): Setup {
  const ft = input.finetune as NonNullable<ExportInput['finetune']>;
  const zero = input.plan.zeroStage ?? input.problem.zeroStage;
  const offload = input.plan.optimizerOffload === true;
  const machines = new Set(layout.ranks.map((r) => r.device.machine)).size;
  const splitModel = layout.pp > 1 || layout.tp > 1;
  let launcher: Launcher;
  if (splitModel && machines <= 1) {
    launcher = 'split';
    warnings.push(
      `PEFT and the Trainer do not pipeline or split layers by tensor parallelism: the launch is one process with ` +
        `device_map="auto" over the plan's ${count(layout.ranks.length, 'device')}, running the layers one device after another, ` +
        `so a step takes about the sum of the stages' times rather than the plan's pipelined time`,
    );
  } else {
    if (splitModel)
      warnings.push(
        `PEFT and the Trainer do not pipeline or split layers by tensor parallelism, and device_map cannot span machines: ` +
          `the launch is data parallel over ${count(layout.ranks.length, 'device')}, each holding the whole model, which the plan did not check`,
      );
    launcher = layout.ranks.length <= 1 ? 'python' : zero >= 1 || offload ? 'accelerate' : 'torchrun';
  }
  const sharding: Sharding = launcher !== 'accelerate' ? 'none' : zero >= 2 && !offload ? 'fsdp' : 'deepspeed';
  if (launcher === 'python' && offload)
    warnings.push("one GPU: the export keeps the adapters' optimizer on the GPU (it is small); the plan offloads it");
  if (input.plan.recompute === 'selective')
    warnings.push(
      "the plan recomputes the attention cores only (selective); the Trainer's gradient checkpointing recomputes whole layers, a little more compute than planned",
    );
  if (input.dtype === 'fp8' || input.dtype === 'fp32')
    warnings.push(`the plan computes in ${input.dtype}; the fine-tuning exports run bf16 mixed precision`);
  return {
    spec: ft.spec,
    modules: ft.targetModules ?? ft.spec.targets.map((t) => PEFT_MODULE_NAMES[t]),
    model: ft.model,
    seqLen: ft.seqLen ?? DEFAULT_FINETUNE_SEQ,
    layout,
    launcher,
    sharding,
    zero,
    offload,
    recompute: input.plan.recompute !== undefined,
    precision: input.dtype === 'fp16' ? 'fp16' : 'bf16',
  };
}

// ---------------------------------------------------------------- launch

/** Ranks grouped by machine, in rank order (a machine whose ranks are not contiguous appears twice). */
function machineGroups(ranks: readonly ExportRank[]): { name: string; ranks: ExportRank[] }[] {
  const groups: { name: string; ranks: ExportRank[] }[] = [];
  for (const r of ranks) {
    const last = groups[groups.length - 1];
    if (last?.name === r.device.machine) last.ranks.push(r);
    else groups.push({ name: r.device.machine, ranks: [r] });
  }
  return groups;
}

/** CUDA_VISIBLE_DEVICES for these ranks in nvidia-smi order, or '' (with a warning) when one has no CUDA index. */
function visibleDevices(ranks: readonly ExportRank[], machine: string, warnings: string[]): string {
  const indices = ranks.map((r) => cudaIndex(r.device));
  if (indices.some((i) => i === null)) {
    warnings.push(
      `${commentText(machine)}: devices without a CUDA index (virtual or CPU); set CUDA_VISIBLE_DEVICES yourself`,
    );
    return '';
  }
  return `CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=${indices.join(',')} `;
}

function launchLines(input: ExportInput, s: Setup): string[] {
  const warnings = s.layout.warnings;
  switch (s.launcher) {
    case 'python':
    case 'split': {
      const first = s.layout.ranks[0];
      const env = visibleDevices(s.layout.ranks, first?.device.machine ?? 'localhost', warnings);
      return [`${env}python ${shellQuote(FINETUNE_SCRIPT)}`];
    }
    case 'torchrun':
      return torchrunCommands(s.layout, input, FINETUNE_SCRIPT, []);
    case 'accelerate': {
      const groups = machineGroups(s.layout.ranks);
      const sizes = new Set(groups.map((g) => g.ranks.length));
      if (sizes.size > 1)
        warnings.push(
          `accelerate launches the same number of processes on every machine; the plan has ${groups.map((g) => g.ranks.length).join(', ')}`,
        );
      const base = `accelerate launch --config_file ${shellQuote(FINETUNE_ACCELERATE_CONFIG)}`;
      return groups.map((g, i) => {
        const env = visibleDevices(g.ranks, g.name, warnings);
        const rank = groups.length > 1 ? ` --machine_rank ${i}` : '';
        return `${env}${base}${rank} ${shellQuote(FINETUNE_SCRIPT)}`;
      });
    }
  }
}

/**
 * accelerate.ts's config for the plan, with what PEFT's FSDP recipe needs: the frozen and trained
 * parameters wrapped apart (fsdp_use_orig_params false; the Trainer wraps the adapters with PEFT's
 * policy) and the base loaded once then broadcast (cpu_ram_efficient_loading, sync_module_states).
 */
function finetuneAccelerateYaml(input: ExportInput, s: Setup): string {
  const yaml = exportAccelerate({ ...input, dtype: s.precision, script: FINETUNE_SCRIPT }).yaml;
  if (s.sharding !== 'fsdp') return yaml;
  return yaml
    .split('\n')
    .flatMap((line) =>
      line === '  fsdp_use_orig_params: true'
        ? ['  fsdp_use_orig_params: false']
        : line === '  fsdp_offload_params: false'
          ? ['  fsdp_cpu_ram_efficient_loading: true', line]
          : line === '  fsdp_state_dict_type: SHARDED_STATE_DICT'
            ? [line, '  fsdp_sync_module_states: true']
            : [line],
    )
    .join('\n');
}

// ---------------------------------------------------------------- train_lora.py

const pyBool = (b: boolean): string => (b ? 'True' : 'False');

function deviceMap(s: Setup): string {
  if (s.launcher === 'split') return '"auto"';
  if (s.sharding === 'fsdp') return 'None';
  return '{"": int(os.environ.get("LOCAL_RANK", "0"))}';
}

function trainScript(s: Setup): string {
  const qlora = s.spec.adapter === 'qlora';
  const fsdp = s.sharding === 'fsdp';
  const torchDtype = s.precision === 'fp16' ? 'torch.float16' : 'torch.bfloat16';
  const kind = qlora ? 'QLoRA' : 'LoRA';
  const lines = [
    '#!/usr/bin/env python3',
    `"""${kind} fine-tuning (rank ${s.spec.rank}, alpha ${s.spec.alpha}) as pipeDejavu planned it.`,
    '',
    'Launch it with launch_lora.sh. Data: a JSON Lines file with a "text" field (TRAIN_FILE,',
    `default train.jsonl). Needs transformers, peft, datasets and accelerate${qlora ? ', and bitsandbytes' : ''}.`,
    '"""',
    `# Model: ${commentText(s.model)}`,
    'import importlib.util',
    'import os',
    'import sys',
    '',
    `NEEDS = (${[...FINETUNE_PACKAGES, ...(qlora ? ['bitsandbytes'] : [])].map(pythonString).join(', ')})`,
    'MISSING = [m for m in NEEDS if importlib.util.find_spec(m) is None]',
    'if MISSING:',
    "    sys.exit(f\"train_lora.py needs {', '.join(NEEDS)}; not installed here: {', '.join(MISSING)} \"",
    '             f"(pip install {\' \'.join(MISSING)})")',
    '',
    'import torch',
    'from datasets import load_dataset',
    `from peft import LoraConfig, get_peft_model${qlora && !fsdp ? ', prepare_model_for_kbit_training' : ''}`,
    'from transformers import (',
    '    AutoModelForCausalLM,',
    '    AutoTokenizer,',
    ...(qlora ? ['    BitsAndBytesConfig,'] : []),
    '    DataCollatorForLanguageModeling,',
    '    Trainer,',
    '    TrainingArguments,',
    ')',
    '',
    `MODEL = ${pythonString(s.model)}`,
    'TRAIN_FILE = os.environ.get("TRAIN_FILE", "train.jsonl")',
    'OUTPUT_DIR = os.environ.get("OUTPUT_DIR", "lora-out")',
    'MAX_STEPS = int(os.environ.get("MAX_STEPS", "100"))',
    `SEQ_LEN = ${s.seqLen}`,
    `# The plan's batch: ${s.layout.microBatch} samples per microbatch, ${count(s.layout.microbatches, 'microbatch', 'microbatches')}, ${count(s.layout.dp, 'replica')}.`,
    `PER_DEVICE_BATCH = ${s.layout.microBatch}`,
    `GRAD_ACCUM = ${s.layout.microbatches}`,
    `GRADIENT_CHECKPOINTING = ${pyBool(s.recompute)}`,
    `DEVICE_MAP = ${deviceMap(s)}`,
    '',
    '',
    'def load_model():',
    ...(qlora ? quantizationLines(torchDtype, fsdp) : []),
    '    model = AutoModelForCausalLM.from_pretrained(',
    '        MODEL,',
    `        torch_dtype=${torchDtype},`,
    ...(qlora ? ['        quantization_config=quantization,'] : []),
    '        device_map=DEVICE_MAP,',
    '    )',
    '    model.config.use_cache = False',
    ...(qlora && !fsdp
      ? [
          '    model = prepare_model_for_kbit_training(',
          '        model,',
          '        use_gradient_checkpointing=GRADIENT_CHECKPOINTING,',
          '        gradient_checkpointing_kwargs={"use_reentrant": False},',
          '    )',
        ]
      : [
          ...(fsdp && qlora
            ? ['    # FSDP flattens one dtype per unit: no fp32 upcast (prepare_model_for_kbit_training) here.']
            : []),
          '    if GRADIENT_CHECKPOINTING:',
          '        model.enable_input_require_grads()',
        ]),
    '    lora = LoraConfig(',
    `        r=${s.spec.rank},`,
    `        lora_alpha=${s.spec.alpha},`,
    `        target_modules=[${s.modules.map(pythonString).join(', ')}],`,
    '        lora_dropout=0.0,',
    '        bias="none",',
    '        task_type="CAUSAL_LM",',
    '    )',
    '    model = get_peft_model(model, lora)',
    '    model.print_trainable_parameters()',
    '    return model',
    '',
    '',
    'def load_data(tokenizer):',
    '    if not os.path.isfile(TRAIN_FILE):',
    '        sys.exit(f"no training data: {TRAIN_FILE!r} is not a file (set TRAIN_FILE to a JSON Lines file with a "',
    '                 \'"text" field)\')',
    '    data = load_dataset("json", data_files=TRAIN_FILE, split="train")',
    '    return data.map(',
    '        lambda batch: tokenizer(batch["text"], truncation=True, max_length=SEQ_LEN),',
    '        batched=True,',
    '        remove_columns=data.column_names,',
    '    )',
    '',
    '',
    'def main():',
    '    tokenizer = AutoTokenizer.from_pretrained(MODEL)',
    '    if tokenizer.pad_token is None:',
    '        tokenizer.pad_token = tokenizer.eos_token',
    '    model = load_model()',
    '    args = TrainingArguments(',
    '        output_dir=OUTPUT_DIR,',
    '        per_device_train_batch_size=PER_DEVICE_BATCH,',
    '        gradient_accumulation_steps=GRAD_ACCUM,',
    '        gradient_checkpointing=GRADIENT_CHECKPOINTING,',
    '        gradient_checkpointing_kwargs={"use_reentrant": False},',
    `        ${s.precision}=True,`,
    '        optim="adamw_torch",',
    '        learning_rate=2e-4,',
    '        max_steps=MAX_STEPS,',
    '        logging_steps=10,',
    '        save_strategy="no",',
    '        ddp_find_unused_parameters=False,',
    '        report_to="none",',
    '    )',
    '    trainer = Trainer(',
    '        model=model,',
    '        args=args,',
    '        train_dataset=load_data(tokenizer),',
    '        data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False),',
    '    )',
    '    trainer.train()',
    ...(fsdp
      ? [
          '    if trainer.is_fsdp_enabled:',
          '        trainer.accelerator.state.fsdp_plugin.set_state_dict_type("FULL_STATE_DICT")',
        ]
      : []),
    '    trainer.save_model(OUTPUT_DIR)',
    '',
    '',
    'if __name__ == "__main__":',
    '    main()',
    '',
  ];
  return lines.join('\n');
}

/** QLoRA's frozen base: NF4 with double-quantised constants, dequantised to the compute dtype. */
function quantizationLines(torchDtype: string, fsdp: boolean): string[] {
  return [
    '    quantization = BitsAndBytesConfig(',
    '        load_in_4bit=True,',
    '        bnb_4bit_quant_type="nf4",',
    '        bnb_4bit_use_double_quant=True,',
    `        bnb_4bit_compute_dtype=${torchDtype},`,
    // FSDP shards the 4-bit weights as bf16-typed storage, like the rest of the unit.
    ...(fsdp ? [`        bnb_4bit_quant_storage=${torchDtype},`] : []),
    '    )',
  ];
}

// ---------------------------------------------------------------- axolotl.yaml

const FSDP_STRATEGY = { 2: 'SHARD_GRAD_OP', 3: 'FULL_SHARD' } as const;
const DEEPSPEED_CONFIG = { 1: 'zero1.json', 2: 'zero2.json', 3: 'zero3_bf16.json' } as const;

function axolotlYaml(s: Setup, warnings: string[]): string {
  const qlora = s.spec.adapter === 'qlora';
  if (s.launcher === 'split')
    warnings.push(
      'axolotl does not pipeline either: its config runs data parallel, each GPU holding the whole model, which the plan did not check',
    );
  const lines = [
    `# axolotl config (axolotl train axolotl.yaml): ${qlora ? 'QLoRA' : 'LoRA'} as pipeDejavu planned it.`,
    `# Model: ${commentText(s.model)}`,
    `base_model: ${yamlString(s.model)}`,
    'load_in_8bit: false',
    `load_in_4bit: ${qlora}`,
    `adapter: ${s.spec.adapter}`,
    `lora_r: ${s.spec.rank}`,
    `lora_alpha: ${s.spec.alpha}`,
    'lora_dropout: 0.0',
    'lora_target_modules:',
    ...s.modules.map((m) => `  - ${yamlString(m)}`),
    `sequence_len: ${s.seqLen}`,
    'sample_packing: false',
    'datasets:',
    `  - path: ${yamlString('train.jsonl')}`,
    '    ds_type: json',
    '    type: completion',
    `output_dir: ${yamlString('./lora-out')}`,
    `micro_batch_size: ${s.layout.microBatch}`,
    `gradient_accumulation_steps: ${s.layout.microbatches}`,
    'max_steps: 100',
    'optimizer: adamw_torch',
    'learning_rate: 0.0002',
    `bf16: ${s.precision === 'bf16'}`,
    `fp16: ${s.precision === 'fp16'}`,
    `gradient_checkpointing: ${s.recompute}`,
    ...(s.recompute ? ['gradient_checkpointing_kwargs:', '  use_reentrant: false'] : []),
    'logging_steps: 10',
    ...shardingLines(s, warnings),
    '',
  ];
  return lines.join('\n');
}

function shardingLines(s: Setup, warnings: string[]): string[] {
  if (s.sharding === 'fsdp') {
    const zero = s.zero as 2 | 3;
    return [
      'fsdp:',
      `  - ${zero === 3 ? 'full_shard' : 'shard_grad_op'}`,
      '  - auto_wrap',
      'fsdp_config:',
      '  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP',
      '  fsdp_backward_prefetch: BACKWARD_PRE',
      '  fsdp_cpu_ram_efficient_loading: true',
      '  fsdp_offload_params: false',
      `  fsdp_sharding_strategy: ${FSDP_STRATEGY[zero]}`,
      '  fsdp_state_dict_type: FULL_STATE_DICT',
      '  fsdp_sync_module_states: true',
      '  fsdp_use_orig_params: false',
    ];
  }
  if (s.sharding === 'deepspeed') {
    const stage = Math.max(1, s.zero) as 1 | 2 | 3;
    if (s.offload)
      warnings.push(
        `axolotl's bundled DeepSpeed config ${DEEPSPEED_CONFIG[stage]} keeps the optimizer on the GPU; the plan offloads it (the adapters' optimizer state is small)`,
      );
    return [`deepspeed: ${yamlString(`deepspeed_configs/${DEEPSPEED_CONFIG[stage]}`)}`];
  }
  return [];
}
