/**
 * LoRA/QLoRA exports: a PEFT training script (train_lora.py), its launch lines (python, torchrun, or
 * accelerate launch with an FSDP config for ZeRO-3) and an axolotl config. The model id or folder
 * the user gave is data: it comes out as an inert Python literal and YAML scalar, and no launch
 * line runs it. Python is byte-compiled and YAML parsed with /usr/bin/python3.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportPlan, type ExportInput } from '../../../../../src-main/core/planner/exports/export-plan.js';
import { exportFinetune } from '../../../../../src-main/core/planner/exports/finetune.js';
import type { Plan, PlanDevice } from '../../../../../src-main/core/planner/types.js';
import type { FinetuneSpec } from '../../../../../src-main/core/workload/finetune.js';
import { planFiles, EMITTED_NAMES } from '../../../../../src-main/services/plan/plan-emit-service.js';
import type { PlanResponse } from '../../../../../src-main/services/plan/plan-service.js';
import { renderPlans } from '../../../../../src-main/cli/render/plan.js';
import { needOracle, ORACLE_PYTHON } from '../../../../helpers/oracle.js';
import { oracleYaml, paramLayers, planGpu, trainingExports, UNREAD_FIGURES } from '../../../../helpers/plan-exports.js';
import { TRAINING_DEFAULTS } from '../../../../helpers/plan-assumptions.js';

const PYTHON = ORACLE_PYTHON;
/** Python byte-compiles and PyYAML parses what is emitted (Debian's python3-yaml). */
const oracle = needOracle('yaml');

const ROOT = mkdtempSync(path.join(tmpdir(), 'pdv-finetune-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

/** Byte-compiles the script and returns its MODEL constant as Python reads it. */
function compileAndReadModel(source: string): string {
  const file = path.join(ROOT, `train_lora_${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(file, source);
  execFileSync(PYTHON, ['-m', 'py_compile', file], { stdio: 'pipe' });
  const read = [
    'import ast,sys',
    'tree = ast.parse(open(sys.argv[1]).read())',
    'for n in tree.body:',
    '    if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "MODEL":',
    '        sys.stdout.write(ast.literal_eval(n.value))',
  ].join('\n');
  return execFileSync(PYTHON, ['-c', read, file], { stdio: 'pipe' }).toString();
}

const LAYERS = paramLayers([
  { name: 'embeddings', params: 1000 },
  ...Array.from({ length: 4 }, (_, i) => ({ name: `layers.${i}`, params: 500 })),
  { name: 'head', params: 10 },
]);

const gpu = (i: number, machine = 'box'): PlanDevice => planGpu(machine, i, 'NVIDIA GeForce RTX 4090', 24, 'datasheet');

const QLORA: FinetuneSpec = {
  adapter: 'qlora',
  stack: 'peft',
  rank: 16,
  alpha: 32,
  targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'],
};
const LORA: FinetuneSpec = { adapter: 'lora', stack: 'peft', rank: 8, alpha: 16, targets: ['q', 'v'] };

interface Shape {
  kind: Plan['kind'];
  /** Devices per stage. */
  stages: number[];
  zeroStage?: 0 | 1 | 2 | 3;
  recompute?: Plan['recompute'];
  microbatches?: number;
  batch?: number;
}

function input(shape: Shape, spec: FinetuneSpec, model = 'meta-llama/Llama-3.1-8B'): ExportInput {
  const total = shape.stages.reduce((a, b) => a + b, 0);
  const devices = Array.from({ length: total }, (_, i) => gpu(i));
  const bounds = shape.stages.length === 1 ? [0, 6] : [0, 3, 6];
  let next = 0;
  const plan: Plan = {
    kind: shape.kind,
    stages: shape.stages.map((n, s) => {
      const ids = devices.slice(next, next + n).map((d) => d.id);
      next += n;
      return { from: bounds[s] as number, to: bounds[s + 1] as number, devices: ids, timeUs: 1, memoryBytes: {} };
    }),
    microbatches: shape.microbatches ?? 4,
    schedule: '1f1b',
    ...UNREAD_FIGURES,
    ...(shape.zeroStage !== undefined ? { zeroStage: shape.zeroStage } : {}),
    ...(shape.recompute ? { recompute: shape.recompute } : {}),
  };
  return {
    plan,
    problem: { layers: LAYERS, devices, mode: 'training', batch: shape.batch ?? 8, zeroStage: 0 },
    finetune: { spec, model, seqLen: 2048 },
  };
}

describe('exportFinetune', () => {
  it('is null without a fine-tuning spec, and in exportPlan too', () => {
    const i = input({ kind: 'single', stages: [1] }, QLORA);
    const { finetune: _, ...plain } = i;
    expect(exportFinetune(plain)).toBeNull();
    expect(trainingExports(exportPlan(plain)).finetune).toBeNull();
    expect(trainingExports(exportPlan(i)).finetune).not.toBeNull();
  });

  it('QLoRA on one GPU: NF4 double-quantised base, k-bit preparation, one python process', () => {
    const e = exportFinetune(
      input({ kind: 'single', stages: [1], recompute: 'full', microbatches: 4, batch: 8 }, QLORA),
    );
    if (!e) throw new Error('no export');
    const py = e.peftConfig;
    expect(py).toContain('load_in_4bit=True');
    expect(py).toContain('bnb_4bit_quant_type="nf4"');
    expect(py).toContain('bnb_4bit_use_double_quant=True');
    expect(py).toContain('bnb_4bit_compute_dtype=torch.bfloat16');
    expect(py).toContain('prepare_model_for_kbit_training(');
    expect(py).toContain(
      'target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]',
    );
    expect(py).toMatch(/LoraConfig\(\s*r=16,\s*lora_alpha=32,/);
    expect(py).toContain('lora_dropout=0.0');
    expect(py).toContain('bias="none"');
    expect(py).toContain('task_type="CAUSAL_LM"');
    expect(py).toContain('PER_DEVICE_BATCH = 2');
    expect(py).toContain('GRAD_ACCUM = 4');
    expect(py).toContain('GRADIENT_CHECKPOINTING = True');
    expect(py).toContain('bf16=True');
    expect(e.launch).toEqual(['CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0 python train_lora.py']);
    expect(e.accelerateYaml).toBeNull();
    if (!oracle) return;
    expect(compileAndReadModel(py)).toBe('meta-llama/Llama-3.1-8B');
    const y = oracleYaml(e.axolotlYaml);
    expect(y).toMatchObject({
      base_model: 'meta-llama/Llama-3.1-8B',
      adapter: 'qlora',
      load_in_4bit: true,
      lora_r: 16,
      lora_alpha: 32,
      lora_dropout: 0,
      lora_target_modules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'],
      sequence_len: 2048,
      micro_batch_size: 2,
      gradient_accumulation_steps: 4,
      gradient_checkpointing: true,
      bf16: true,
      optimizer: 'adamw_torch',
    });
    expect(y).not.toHaveProperty('fsdp');
    expect(y).not.toHaveProperty('deepspeed');
  });

  it('LoRA on two GPUs, plain data parallel: torchrun with two processes, one GPU each, no quantisation', () => {
    const e = exportFinetune(
      input({ kind: 'data-parallel', stages: [2], zeroStage: 0, microbatches: 2, batch: 8 }, LORA),
    );
    if (!e) throw new Error('no export');
    expect(e.launch).toEqual([
      'CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 torchrun --standalone --nnodes 1 --nproc_per_node 2 train_lora.py',
    ]);
    expect(e.accelerateYaml).toBeNull();
    expect(e.peftConfig).not.toContain('BitsAndBytesConfig(');
    expect(e.peftConfig).not.toContain('prepare_model_for_kbit_training(');
    expect(e.peftConfig).toContain('target_modules=["q_proj", "v_proj"]');
    expect(e.peftConfig).toContain('DEVICE_MAP = {"": int(os.environ.get("LOCAL_RANK", "0"))}');
    expect(e.peftConfig).toContain('GRADIENT_CHECKPOINTING = False');
    expect(e.peftConfig).toContain('PER_DEVICE_BATCH = 2');
    expect(e.peftConfig).toContain('GRAD_ACCUM = 2');
    if (!oracle) return;
    compileAndReadModel(e.peftConfig);
    const y = oracleYaml(e.axolotlYaml);
    expect(y).toMatchObject({ adapter: 'lora', lora_r: 8, micro_batch_size: 2, gradient_accumulation_steps: 2 });
    expect(y).not.toHaveProperty('load_in_4bit', true);
    expect(y).not.toHaveProperty('fsdp');
  });

  it("names the architecture's own modules when given (GPT-2's fused c_attn), quoted", () => {
    const i = input({ kind: 'single', stages: [1] }, LORA);
    const ft = i.finetune;
    if (!ft) throw new Error('no spec');
    const e = exportFinetune({ ...i, finetune: { ...ft, targetModules: ['c_attn', 'c_proj'] } });
    expect(e?.peftConfig).toContain('target_modules=["c_attn", "c_proj"]');
    if (oracle) expect(oracleYaml(e?.axolotlYaml ?? '').lora_target_modules).toEqual(['c_attn', 'c_proj']);
  });

  it('ZeRO-3: FSDP full shard over the frozen base, launched by accelerate with its config', () => {
    const e = exportFinetune(input({ kind: 'data-parallel', stages: [4], zeroStage: 3, recompute: 'full' }, QLORA));
    if (!e) throw new Error('no export');
    expect(e.accelerateYaml).not.toBeNull();
    expect(e.launch).toEqual([
      'CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1,2,3 accelerate launch --config_file accelerate_lora.yaml train_lora.py',
    ]);
    // FSDP flattens parameters of one dtype: 4-bit weights stored as bf16, no fp32 upcast of norms.
    expect(e.peftConfig).toContain('bnb_4bit_quant_storage=torch.bfloat16');
    expect(e.peftConfig).not.toContain('prepare_model_for_kbit_training(');
    expect(e.peftConfig).toContain('DEVICE_MAP = None');
    if (!oracle) return;
    compileAndReadModel(e.peftConfig);
    const acc = oracleYaml(e.accelerateYaml ?? '');
    expect(acc).toMatchObject({ distributed_type: 'FSDP', mixed_precision: 'bf16', num_processes: 4, num_machines: 1 });
    expect(acc.fsdp_config).toMatchObject({
      fsdp_sharding_strategy: 'FULL_SHARD',
      fsdp_use_orig_params: false,
      fsdp_cpu_ram_efficient_loading: true,
    });
    const y = oracleYaml(e.axolotlYaml);
    expect(y.fsdp).toEqual(['full_shard', 'auto_wrap']);
    expect(y.fsdp_config).toMatchObject({ fsdp_sharding_strategy: 'FULL_SHARD', fsdp_use_orig_params: false });
    expect(y).not.toHaveProperty('deepspeed');
  });

  it('a pipeline plan: warns that PEFT and Trainer do not pipeline, and splits the model in one process', () => {
    const e = exportFinetune(input({ kind: 'pipeline', stages: [1, 1] }, QLORA));
    if (!e) throw new Error('no export');
    expect(e.warnings.join('\n')).toMatch(/do not pipeline/);
    expect(e.warnings.join('\n')).toMatch(/device_map/);
    expect(e.launch).toEqual(['CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 python train_lora.py']);
    expect(e.peftConfig).toContain('DEVICE_MAP = "auto"');
    if (oracle) compileAndReadModel(e.peftConfig);
  });

  it('a hostile model path is one inert literal in Python and YAML and never reaches a shell', () => {
    const model = `./my "model" 'x' $(touch PWNED) \`touch PWNED2\`\nline: # not a comment\u2028 é`;
    const i = input({ kind: 'data-parallel', stages: [2], zeroStage: 3 }, QLORA, model);
    const e = exportFinetune(i);
    if (!e) throw new Error('no export');
    // No raw control character, line or paragraph separator from the name (a comment may keep the é).
    for (const text of [e.peftConfig, e.axolotlYaml, e.accelerateYaml ?? '', ...e.launch, ...e.warnings])
      expect(text.replace(/\n/g, '')).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(e.peftConfig).toMatch(/^MODEL = "[\x20-\x7e]*"$/m);
    expect(e.axolotlYaml).toMatch(/^base_model: "[\x20-\x7e]*"$/m);
    if (!oracle) return;
    expect(compileAndReadModel(e.peftConfig)).toBe(model);
    expect(oracleYaml(e.axolotlYaml).base_model).toBe(model);
    // The launch lines, run with stub launchers, create nothing.
    const dir = path.join(ROOT, 'shell');
    const bin = path.join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    for (const name of ['python', 'torchrun', 'accelerate']) {
      writeFileSync(path.join(bin, name), '#!/bin/sh\nexit 0\n');
      chmodSync(path.join(bin, name), 0o755);
    }
    const files = planFiles({
      workload: model,
      problem: { ...i.problem, links: [], bytesPerParam: 2, overheadBytes: 0 },
      exports: exportPlan(i),
      timeline: [],
    } as unknown as PlanResponse);
    const launch = files.find((f) => f.name === 'launch_lora.sh');
    if (!launch) throw new Error('no launch_lora.sh');
    writeFileSync(path.join(dir, 'launch_lora.sh'), launch.text);
    execFileSync('/bin/bash', ['launch_lora.sh'], {
      cwd: dir,
      env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` },
      stdio: 'pipe',
    });
    expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
    expect(existsSync(path.join(dir, 'PWNED2'))).toBe(false);
  });
});

describe('plan --emit with a fine-tuning plan', () => {
  it('writes train_lora.py, launch_lora.sh, axolotl.yaml (and accelerate_lora.yaml for FSDP) and lists them', () => {
    const i = input({ kind: 'data-parallel', stages: [2], zeroStage: 3 }, QLORA);
    const files = planFiles({
      workload: 'llama',
      problem: { ...i.problem, links: [], bytesPerParam: 2, overheadBytes: 0 },
      exports: exportPlan(i),
      timeline: [],
    } as unknown as PlanResponse);
    const names = files.map((f) => f.name);
    for (const n of ['train_lora.py', 'launch_lora.sh', 'axolotl.yaml', 'accelerate_lora.yaml']) {
      expect(names).toContain(n);
      expect(EMITTED_NAMES as readonly string[]).toContain(n);
    }
    const readme = files.find((f) => f.name === 'README.txt')?.text ?? '';
    expect(readme).toMatch(/^train_lora\.py: /m);
    expect(readme).toMatch(/^axolotl\.yaml: /m);
    const plain = { ...i };
    delete plain.finetune;
    const none = planFiles({
      workload: 'llama',
      problem: { ...i.problem, links: [], bytesPerParam: 2, overheadBytes: 0 },
      exports: exportPlan(plain),
      timeline: [],
    } as unknown as PlanResponse).map((f) => f.name);
    expect(none).not.toContain('train_lora.py');
  });
});

describe('plan (text) with a fine-tuning plan', () => {
  it('prints the LoRA launch line and what --emit writes', () => {
    const i = input({ kind: 'pipeline', stages: [1, 1] }, QLORA);
    const text = renderPlans({
      workload: 'llama',
      assumptions: {
        ...TRAINING_DEFAULTS,
        weights: 'nf4',
        stack: { name: 'peft', title: 'PEFT + transformers Trainer (bitsandbytes for QLoRA)' },
      },
      problem: { ...i.problem, links: [], bytesPerParam: 2, overheadBytes: 0 },
      result: { plans: [], rejected: [], searchMs: 0 },
      exports: exportPlan(i),
      suggestions: [],
      stepBands: [],
      warnings: [],
    } as unknown as PlanResponse);
    expect(text).toContain(
      'LoRA:      CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=0,1 python train_lora.py (--emit writes train_lora.py, launch_lora.sh, axolotl.yaml)',
    );
    expect(text).toMatch(/note: PEFT and the Trainer do not pipeline/);
    expect(text.split('\n')[1]).toBe(
      "Assumes: sequence 8,192 tokens (the model's default, of its 131,072), batch 8 (default), nf4 weights, bf16 compute, " +
        'stack PEFT + transformers Trainer (bitsandbytes for QLoRA), fused attention (no s² scores kept)',
    );
  });
});
