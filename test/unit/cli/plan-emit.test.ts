/** `pipedejavu plan --emit DIR`: the best plan as files that run: a serving plan's launch line, a training plan's launchers, a trace. */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir, words } from '../../helpers/cli.js';
import { gpuServerProfile, GPU_BOX } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { checkCommand, loadFixture } from '../../helpers/engine-flags.js';

async function lab(): Promise<{ db: string; dir: string }> {
  const dir = tempDir();
  const db = path.join(dir, 'lab.db');
  seededDb(db).close();
  const nodes = path.join(dir, 'nodes');
  execFileSync('mkdir', ['-p', nodes]);
  writeFileSync(path.join(nodes, 'gpu-box.json'), encodeProfile(gpuServerProfile()));
  writeFileSync(
    path.join(nodes, 'h100-box.json'),
    encodeProfile(
      gpuServerProfile({ hostname: 'h100-box', gpus: { name: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559 } }),
    ),
  );
  expect((await cli(['import', nodes, '--db', db])).code).toBe(0);
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return { db, dir };
}

describe('pipedejavu plan --emit', () => {
  it('writes the files that run the best plan over two imported nodes', async () => {
    const { db, dir } = await lab();
    const out = path.join(dir, 'plan');
    // vLLM holds 90% of each GPU less its reserve: 4 sequences of 8k tokens beside the 70B weights.
    const r = await cli(words`plan --workload llama-3.1-70b --mode inference --batch 4 --seq 8192
      --devices none --machine ${GPU_BOX},h100-box --network 100GbE --emit ${out} --db ${db}`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Wrote 3 files to /);
    // A serving plan writes its engine's launch line only: no Slurm, torchrun, DeepSpeed or Megatron.
    expect(readdirSync(out).sort()).toEqual(['README.txt', 'serve.sh', 'timeline.trace.json']);
    const serve = readFileSync(path.join(out, 'serve.sh'), 'utf8');
    execFileSync('bash', ['-n', path.join(out, 'serve.sh')]);
    const line = serve.split('\n')[1] ?? '';
    expect(line).toMatch(/vllm serve meta-llama\/Llama-3\.1-70B\S* /);
    expect(checkCommand(line, loadFixture('vllm'))).toEqual([]);
    const trace = JSON.parse(readFileSync(path.join(out, 'timeline.trace.json'), 'utf8')) as {
      traceEvents: { ph: string; ts?: number; dur?: number }[];
    };
    const work = trace.traceEvents.filter((e) => e.ph === 'X');
    expect(work.length).toBeGreaterThan(0);
    for (const e of work) expect(e.dur).toBeGreaterThanOrEqual(0);
    const readme = readFileSync(path.join(out, 'README.txt'), 'utf8');
    expect(readme).toMatch(/serve\.sh: vLLM launch line/);
    expect(readme).not.toMatch(/job\.sbatch|torchrun|DeepSpeed|Megatron/);
  });

  it("writes an engine's config next to its launch line (TabbyAPI for ExLlamaV2)", async () => {
    const { db, dir } = await lab();
    const out = path.join(dir, 'tabby');
    const r = await cli(words`plan --workload llama-3.1-8b --mode inference --engine exllamav2 --weights int4
      --devices none --machine ${GPU_BOX} --emit ${out} --db ${db}`);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['README.txt', 'config.yml', 'serve.sh', 'timeline.trace.json']);
    expect(readFileSync(path.join(out, 'serve.sh'), 'utf8')).toMatch(/python3 main\.py --config config\.yml\n$/);
    expect(readFileSync(path.join(out, 'config.yml'), 'utf8')).toMatch(/backend: exllamav2\n/);
  });

  it("writes a training plan's launchers only (Slurm, DeepSpeed, Megatron, torch, accelerate)", async () => {
    const { db, dir } = await lab();
    const out = path.join(dir, 'train');
    const r = await cli(words`plan --workload bert-base --seq 128 --mode training --batch 8
      --devices none --machine ${GPU_BOX},h100-box --network 100GbE --emit ${out} --db ${db}`);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(
      [
        'README.txt',
        'accelerate.yaml',
        'deepspeed.sh',
        'ds_config.json',
        'hostfile',
        'job.sbatch',
        'megatron-args.txt',
        'megatron.sh',
        'pipeline_module.py',
        'timeline.trace.json',
        'torchrun.sh',
        'train_accelerate.py',
        'train_deepspeed.py',
        'train_pipeline.py',
      ].sort(),
    );
    const sbatch = readFileSync(path.join(out, 'job.sbatch'), 'utf8');
    execFileSync('bash', ['-n', path.join(out, 'job.sbatch')]);
    expect(sbatch).toContain('--nodelist=');
    expect(JSON.parse(readFileSync(path.join(out, 'ds_config.json'), 'utf8'))).toHaveProperty('train_batch_size');
    const readme = readFileSync(path.join(out, 'README.txt'), 'utf8');
    expect(readme).toMatch(/job\.sbatch: Slurm batch script/);
    expect(readme).not.toMatch(/vllm|llama-server|serve\.sh/i);
  });

  it('says in one line when no plan fits, and writes nothing', async () => {
    const { db, dir } = await lab();
    const out = path.join(dir, 'none');
    const r = await cli(words`plan --workload llama-3.1-70b --devices cpu --emit ${out} --db ${db}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pipedejavu: error: no plan of llama-3\.1-70b fits these devices: nothing to emit\n$/);
  });
});
