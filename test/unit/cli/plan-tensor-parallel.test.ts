/**
 * `pipedejavu plan` for serving a large decoder: tensor and pipeline splits with time to first
 * token, tokens per second, longest context and memory per device, on an imported two-GPU
 * profile and on datasheet GPUs, exported to Megatron-LM, vLLM and llama.cpp; bad input in one line.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

interface PlanJson {
  plans: {
    kind: string;
    feasible: boolean;
    stages: { devices: string[]; tp?: number }[];
    memory: { device: string; neededBytes: number; availableBytes: number; kvCacheBytes?: number }[];
  }[];
  serving: { ttftUs: number; decodeStepUs: number; tokensPerSecond: number; maxContext: number }[] | null;
  exports: { kind: 'serving'; launch: { engine: string; command: string; args: string[] } } | null;
  warnings: string[];
}

const BOX = 'h100-box';

async function storeWithH100Box(): Promise<string> {
  const dir = tempDir();
  const db = path.join(dir, 'plan.db');
  seededDb(db).close();
  const file = path.join(dir, 'h100-box.json');
  writeFileSync(
    file,
    encodeProfile(gpuServerProfile({ hostname: BOX, gpus: { name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559 } })),
  );
  expect((await cli(['import', file, '--db', db])).code).toBe(0);
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return db;
}

const flagOf = (args: readonly string[], name: string): string | undefined => args[args.indexOf(name) + 1];

describe('pipedejavu plan --mode inference for Llama 3.1 70B', () => {
  it('splits it over an imported two-GPU machine with serving figures, KV cache per device and exports', async () => {
    const db = await storeWithH100Box();
    const args = ['plan', '--workload', 'llama-3.1-70b', '--mode', 'inference', '--devices', 'none'];
    // fp8 weights: 141 GB of bf16 would not fit what vLLM leaves of two 80 GB GPUs (90%, less its reserve).
    const fp8 = ['--weights', 'fp8'];
    const r = await cli([...args, ...fp8, '--machine', BOX, '--batch', '2', '--seq', '4096', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as PlanJson;
    const best = j.plans[0];
    expect(best?.feasible).toBe(true);
    // 70 GB of fp8 weights and the KV cache: no single 80 GB GPU holds them under vLLM, so both GPUs are used.
    expect(best?.stages.flatMap((s) => s.devices)).toHaveLength(2);
    expect(j.plans.some((p) => p.feasible && p.stages.some((s) => s.tp === 2))).toBe(true);
    for (const m of best?.memory ?? []) {
      expect(m.neededBytes).toBeLessThanOrEqual(m.availableBytes);
      expect(m.kvCacheBytes).toBeGreaterThan(0);
    }
    const s = j.serving?.[0];
    expect(s?.ttftUs).toBeGreaterThan(0);
    expect(s?.tokensPerSecond).toBeGreaterThan(0);
    expect(s?.maxContext).toBeGreaterThanOrEqual(4096);
    expect(s?.maxContext).toBeLessThanOrEqual(131072);
    expect(j.exports?.launch.command).toMatch(
      /vllm serve meta-llama\/Llama-3\.1-70B\S* --dtype bfloat16 --quantization fp8/,
    );
    // A serving plan prints its engine's launch line only: no training launcher.
    expect(JSON.stringify(j.exports)).not.toMatch(/torchrun|deepspeed|megatron|pretrain_gpt/i);

    const text = await cli([...args, ...fp8, '--machine', BOX, '--batch', '2', '--seq', '4096', '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/FIRST TOKEN +DECODE STEP +TOKENS\/S\/SEQ +REQUEST +TOKENS\/S AT 2 +MAX CONCURRENT/);
    expect(text.stdout).toMatch(
      /^Launch \(vllm\): .*vllm serve meta-llama\/Llama-3\.1-70B\S* .*--tensor-parallel-size/m,
    );
    expect(text.stdout).not.toMatch(/torchrun|DeepSpeed:|Megatron:|pretrain_gpt/);
  });

  it('recommends tensor parallelism on eight datasheet H100s and exports it', async () => {
    const db = await storeWithH100Box();
    const h100s = Array.from({ length: 8 }, () => 'H100 SXM5').join(',');
    const r = await cli([
      'plan',
      '--workload',
      'llama-3.1-70b',
      '--mode',
      'inference',
      '--devices',
      'none',
      '--virtual',
      h100s,
      '--batch',
      '8',
      '--seq',
      '8192',
      '--db',
      db,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as PlanJson;
    const tp = j.plans[0]?.stages[0]?.tp ?? 1;
    expect(tp).toBeGreaterThan(1);
    expect(flagOf(j.exports?.launch.args ?? [], '--tensor-parallel-size')).toBe(String(tp));
    expect(j.serving?.every((x) => x.tokensPerSecond > 0)).toBe(true);
  });

  it('says in one line what is wrong with a degree, a context or experts that fit nowhere', async () => {
    const db = await storeWithH100Box();
    const base = ['plan', '--mode', 'inference', '--devices', 'none', '--machine', BOX, '--db', db];
    const tp = await cli([...base, '--workload', 'llama-3.1-70b', '--tp', '3']);
    expect(tp.code).toBe(1);
    expect(tp.stderr).toBe(
      "pipedejavu: error: --tp 3: a tensor-parallel degree must divide llama-3.1-70b's 64 attention heads and 8 KV heads (degrees that do: 1, 2, 4, 8)\n",
    );
    const badList = await cli([...base, '--workload', 'llama-3.1-70b', '--tp', '2,,4']);
    expect(badList.code).toBe(2);
    expect(badList.stderr.trim().split('\n')).toHaveLength(1);
    const context = await cli([...base, '--workload', 'llama-7b', '--seq', '8192']);
    expect(context.code).toBe(1);
    expect(context.stderr).toBe(
      "pipedejavu: error: llama-7b: a prompt of 8192 and 256 output tokens make 8448, longer than the model's context of 4096; give --seq 3840 or less, or fewer --tokens\n",
    );
    const experts = await cli([
      'plan',
      '--workload',
      'mixtral-8x7b',
      '--mode',
      'training',
      '--devices',
      'none',
      '--virtual',
      'T4',
      '--db',
      db,
    ]);
    expect(experts.code).toBe(1);
    expect(experts.stderr.trim().split('\n')).toHaveLength(1);
    expect(experts.stderr).toMatch(/one block with its experts .* needs/);
  });

  it('serves one sequence by default, ranked by a whole request, with --weights, --tokens and --prompt', async () => {
    const db = await storeWithH100Box();
    const base = ['plan', '--workload', 'llama-3.1-70b', '--mode', 'inference', '--devices', 'none'];
    const r = await cli([
      ...base,
      '--virtual',
      '4xH100 SXM5',
      '--weights',
      'int4',
      '--tokens',
      '128',
      '--db',
      db,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Omit<PlanJson, 'serving'> & {
      batch: number;
      served: { prompt: number; tokens: number; objective: string };
      serving: { requestUs: number; maxBatch: number; maxBatchTokensPerSecond: number }[];
    };
    expect(j.batch).toBe(1);
    expect(j.served).toMatchObject({ prompt: 1024, tokens: 128, objective: 'latency' });
    expect(j.warnings).toContain('llama-3.1-70b: weights held as int4, 0.53125 bytes per parameter');
    const requests = j.serving.filter((_, i) => j.plans[i]?.feasible).map((s) => s.requestUs);
    expect(requests).toEqual([...requests].sort((a, b) => a - b));
    expect(j.serving[0]?.maxBatch).toBeGreaterThan(1);
    const training = await cli([
      'plan',
      '--workload',
      'gpt2-small',
      '--devices',
      'none',
      '--virtual',
      'T4',
      '--db',
      db,
      '--json',
    ]);
    expect((JSON.parse(training.stdout) as { batch: number }).batch).toBe(8);
  });

  it('says in one line what is wrong with a weight format or an objective', async () => {
    const db = await storeWithH100Box();
    const base = ['plan', '--workload', 'llama-3.1-8b', '--mode', 'inference', '--devices', 'none', '--db', db];
    const fp8 = await cli([...base, '--virtual', 'A100 SXM4 80GB,RTX 4090', '--weights', 'fp8']);
    expect(fp8.code).toBe(1);
    expect(fp8.stderr).toBe(
      'pipedejavu: error: --weights fp8 needs fp8 units (Ada, Hopper, Blackwell), which NVIDIA A100 SXM4 80GB (Ampere) lacks; give --weights int8, q8_0, int4, q4_k, q4_0 instead, or plan on an L40S, RTX 4090 or H100\n',
    );
    const wide = await cli([...base, '--virtual', 'RTX 4090', '--dtype', 'fp16', '--weights', 'bf16']);
    expect(wide.code).toBe(1);
    expect(wide.stderr).toBe(
      'pipedejavu: error: --weights bf16: the model computes in fp16, which takes weights as fp16, int8, fp8, q8_0, int4, q4_k, q4_0\n',
    );
    const training = await cli([...base, '--virtual', 'RTX 4090', '--mode', 'training', '--weights', 'q4_k']);
    expect(training.code).toBe(1);
    expect(training.stderr.trim().split('\n')).toHaveLength(1);
    expect(training.stderr).toMatch(/--weights q4_k is for serving \(--mode inference\)/);
    const unknown = await cli([...base, '--virtual', 'RTX 4090', '--weights', 'q3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--weights takes fp32, fp16, bf16, int8, fp8, q8_0, int4, q4_k, q4_0; got "q3"/);
    const objective = await cli([...base, '--virtual', 'RTX 4090', '--objective', 'speed']);
    expect(objective.code).toBe(2);
    expect(objective.stderr).toMatch(/--objective takes latency or throughput; got "speed"/);
  });
});
