/** `pipedejavu plan --emit DIR`: the best plan as files that run (Slurm, hostfile, DeepSpeed, Megatron, torch, a trace). */
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile, GPU_BOX } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';

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
    const r = await cli([
      'plan',
      '--workload',
      'llama-3.1-70b',
      '--mode',
      'inference',
      '--batch',
      '16',
      '--seq',
      '8192',
      '--devices',
      'none',
      '--machine',
      `${GPU_BOX},h100-box`,
      '--network',
      '100GbE',
      '--emit',
      out,
      '--db',
      db,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Wrote 12 files to /);
    expect(readdirSync(out).sort()).toEqual(
      [
        'README.txt',
        'ds_config.json',
        'hostfile',
        'job.sbatch',
        'llama-server.sh',
        'megatron-args.txt',
        'megatron.sh',
        'pipeline_module.py',
        'timeline.trace.json',
        'torchrun.sh',
        'train_pipeline.py',
        'vllm.sh',
      ].sort(),
    );
    const sbatch = readFileSync(path.join(out, 'job.sbatch'), 'utf8');
    execFileSync('bash', ['-n', path.join(out, 'job.sbatch')]);
    expect(sbatch).toMatch(/^#!\/bin\/bash\n/);
    expect(sbatch).toContain('--nodelist=');
    const trace = JSON.parse(readFileSync(path.join(out, 'timeline.trace.json'), 'utf8')) as {
      traceEvents: { ph: string; ts?: number; dur?: number }[];
    };
    const work = trace.traceEvents.filter((e) => e.ph === 'X');
    expect(work.length).toBeGreaterThan(0);
    for (const e of work) expect(e.dur).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(readFileSync(path.join(out, 'ds_config.json'), 'utf8'))).toHaveProperty('train_batch_size');
    expect(readFileSync(path.join(out, 'README.txt'), 'utf8')).toMatch(/job\.sbatch: Slurm batch script/);
  });

  it('says in one line when no plan fits, and writes nothing', async () => {
    const { db, dir } = await lab();
    const out = path.join(dir, 'none');
    const r = await cli(['plan', '--workload', 'llama-3.1-70b', '--devices', 'cpu', '--emit', out, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pipedejavu: error: no plan of llama-3\.1-70b fits these devices: nothing to emit\n$/);
  });
});
