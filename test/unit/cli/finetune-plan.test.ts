/**
 * `plan --mode finetune` and `fit --mode finetune` on a Hugging Face model folder (config.json
 * written here from the published Llama 3.1 8B hyper-parameters), on datasheet GPUs, through the CLI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { LLAMA_31_8B } from '../../helpers/hf-configs.js';

interface PlanJson {
  finetune: { adapter: string; rank: number; alpha: number; targets: string[] } | null;
  plans: { kind: string; feasible: boolean; stepUs: number; memory: { device: string; neededBytes: number }[] }[];
}

function setup(): { db: string; folder: string } {
  const dir = tempDir();
  const folder = path.join(dir, 'Llama-3.1-8B');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(LLAMA_31_8B));
  const db = path.join(dir, 's.db');
  seededDb(db).close();
  return { db, folder };
}

const GIB = 2 ** 30;

async function plan(db: string, folder: string, extra: string[]): Promise<PlanJson> {
  const r = await cli([
    ...['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090,RTX 3090'],
    ...['--mode', 'finetune', '--seq', '2048', '--batch', '1', '--json', ...extra],
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as PlanJson;
}

describe('plan --mode finetune', () => {
  it('ranks QLoRA plans of a model folder on an RTX 4090 and an RTX 3090 with memory per device and time per step', async () => {
    const { db, folder } = setup();
    const q = await plan(db, folder, ['--adapter', 'qlora', '--recompute', 'full']);
    expect(q.finetune).toEqual({
      adapter: 'qlora',
      stack: 'peft',
      rank: 16,
      alpha: 32,
      targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'],
    });
    const best = q.plans[0]!;
    expect(best.feasible).toBe(true);
    expect(best.stepUs).toBeGreaterThan(0);
    // NF4 blocks (3.4 GiB), fp32 embeddings and head (3.9 GiB), fp32 adapters with Adam (0.6 GiB),
    // checkpoints, the loss's logits (2.4 GiB), one block recomputed, overhead.
    const need = best.memory[0]!.neededBytes / GIB;
    expect(need).toBeGreaterThan(10);
    expect(need).toBeLessThan(14);
    // LoRA holds the base in bf16: about 8 GiB more, and skips the dequantisation.
    const l = await plan(db, folder, ['--adapter', 'lora', '--recompute', 'full']);
    const lora = l.plans.find((p) => p.kind === best.kind)!;
    expect(lora.memory[0]!.neededBytes / GIB - need).toBeGreaterThan(6);
    expect(lora.stepUs).toBeLessThan(best.stepUs);
    // Unsloth keeps bf16 adapters, no logits and offloaded checkpoints: under 8 GiB.
    const u = await plan(db, folder, ['--adapter', 'qlora', '--recompute', 'full', '--stack', 'unsloth']);
    expect(u.plans[0]!.memory[0]!.neededBytes / GIB).toBeLessThan(8);
  });

  it('plans the datasheet GPUs alone on a store where nothing was profiled, without --devices', async () => {
    const dir = tempDir();
    const folder = path.join(dir, 'Llama-3.1-8B');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'config.json'), JSON.stringify(LLAMA_31_8B));
    const r = await cli([
      ...['plan', '--db', path.join(dir, 'empty.db'), '--workload', folder],
      ...['--mode', 'finetune', '--adapter', 'qlora', '--virtual', 'RTX 4090,RTX 3090'],
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Llama-3\.1-8B: fine-tuning, QLoRA \(NF4 base\) r16 alpha 32 on q,k,v,o,gate,up,down, batch 8/,
    );
    expect(r.stdout).toMatch(/Best plan: .*memory per device:/);
    expect(r.stdout).toContain('no machine profiled here: only the datasheet GPUs are planned');
    expect(r.stdout).toContain('LoRA:');
  });

  it("leaves this machine's CPU out of a fine-tuning plan beside GPUs, and says so", async () => {
    const { db, folder } = setup();
    const r = await cli([
      ...['plan', '--db', db, '--workload', folder, '--devices', 'all', '--virtual', 'RTX 4090,RTX 3090'],
      ...['--mode', 'finetune', '--adapter', 'qlora', '--seq', '2048', '--batch', '2', '--json'],
    ]);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout) as { devices: { id: string; kind: string }[]; warnings: string[] };
    expect(p.devices.map((d) => d.kind)).toEqual(['gpu', 'gpu']);
    expect(p.warnings.join('\n')).toMatch(/fine-tuning plans the GPUs only: \S+\/cpu\S* left out/);
  });

  it('plans a stored Hugging Face folder (workload add) and refuses an ONNX graph in one line', async () => {
    const { db, folder } = setup();
    const added = await cli(['workload', 'add', folder, '--db', db, '--name', 'my-llama']);
    expect(added.code).toBe(0);
    const stored = await plan(db, 'my-llama', ['--adapter', 'lora', '--targets', 'q,v']);
    expect(stored.finetune?.targets).toEqual(['q', 'v']);
    expect(stored.plans[0]!.feasible).toBe(true);
    const onnx = await cli([
      ...['plan', '--db', db, '--workload', 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx', '--devices', 'none'],
      ...['--virtual', 'RTX 4090', '--mode', 'finetune', '--adapter', 'lora'],
    ]);
    expect(onnx.code).not.toBe(0);
    expect(onnx.stderr.trim().split('\n')).toHaveLength(1);
    expect(onnx.stderr).toMatch(/LoRA and QLoRA fine-tuning is planned for transformers .*not for ONNX graphs/);
  });

  it('text output names the adapter, and the text refuses what it cannot plan in one line', async () => {
    const { db, folder } = setup();
    const base = ['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090'];
    const noAdapter = await cli([...base, '--mode', 'finetune']);
    expect(noAdapter.code).not.toBe(0);
    expect(noAdapter.stderr.trim().split('\n')).toHaveLength(1);
    expect(noAdapter.stderr).toMatch(/--mode finetune needs --adapter lora or qlora/);
    const rankAlone = await cli([...base, '--mode', 'training', '--rank', '8']);
    expect(rankAlone.stderr).toMatch(/--rank is for --mode finetune/);
    const offload = await cli([...base, '--mode', 'finetune', '--adapter', 'qlora', '--offload', 'yes']);
    expect(offload.stderr).toMatch(/--offload yes: fine-tuning keeps the adapters' small optimizer state on the GPU/);
    const badTarget = await cli([...base, '--mode', 'finetune', '--adapter', 'lora', '--targets', 'q,lm_head']);
    expect(badTarget.stderr).toMatch(/"lm_head" is not a LoRA target here/);
    const gpt2 = await cli([
      ...['plan', '--db', db, '--workload', 'gpt2-small', '--devices', 'none', '--virtual', 'RTX 4090'],
      ...['--mode', 'finetune', '--adapter', 'lora', '--targets', 'gate'],
    ]);
    expect(gpt2.stderr.trim()).toMatch(
      /^pipedejavu: error: --targets gate: GPT-2 small \(124M\) has no gate projection/,
    );
  });
});

describe('fit --mode finetune', () => {
  it('lists LoRA and QLoRA with and without recomputation, and where each fits', async () => {
    const { db, folder } = setup();
    const r = await cli([
      ...['fit', folder, '--db', db, '--mode', 'finetune', '--context', '2048'],
      ...['--gpus', 'RTX 4090,RTX 3060', '--json'],
    ]);
    expect(r.stderr).toBe('');
    const fit = JSON.parse(r.stdout) as {
      rows: { label: string; weightsBytes: number; gradientBytes: number; optimizerBytes: number; alone: string[] }[];
    };
    expect(fit.rows.map((x) => x.label)).toEqual([
      'LoRA, bf16 base r16, no recompute',
      'LoRA, bf16 base r16, full recompute',
      'QLoRA, NF4 base r16, no recompute',
      'QLoRA, NF4 base r16, full recompute',
    ]);
    const qlora = fit.rows[3]!;
    // Adapter gradients (fp32) and Adam moments of 41,943,040 parameters (PEFT).
    expect(qlora.gradientBytes).toBe(4 * 41_943_040);
    expect(qlora.optimizerBytes).toBe(8 * 41_943_040);
    expect(qlora.alone).toEqual(['NVIDIA GeForce RTX 4090']);
    expect(fit.rows[1]!.alone).toEqual(['NVIDIA GeForce RTX 4090']);
    // Its time per step on the first GPU that holds it is the plan's for the same run.
    const time = (fit.rows[3] as unknown as { time: { gpu: string; what: string; us: number } }).time;
    expect(time).toMatchObject({ gpu: 'NVIDIA GeForce RTX 4090', what: 'step' });
    const p = await cli([
      ...['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090'],
      ...['--mode', 'finetune', '--adapter', 'qlora', '--seq', '2048', '--batch', '1', '--recompute', 'full', '--json'],
    ]);
    const step = (JSON.parse(p.stdout) as PlanJson).plans[0]!.stepUs;
    expect(Math.abs(time.us / step - 1)).toBeLessThan(0.01);
    // Unsloth's QLoRA fits the 12 GB card too.
    const u = await cli([
      ...['fit', folder, '--db', db, '--mode', 'finetune', '--context', '2048', '--stack', 'unsloth'],
      ...['--gpus', 'RTX 4090,RTX 3060', '--json'],
    ]);
    const unsloth = JSON.parse(u.stdout) as typeof fit;
    expect(unsloth.rows[3]!.alone).toEqual(['NVIDIA GeForce RTX 4090', 'NVIDIA GeForce RTX 3060']);
  });
});
