/**
 * `plan --emit` writes scripts that run (issue 59): every file a launch line names (job.sbatch,
 * torchrun.sh, deepspeed.sh, megatron.sh, accelerate's command, launch_lora.sh) is among the files written
 * (Megatron-LM's own pretrain_gpt.py is run from its checkout), no emitted file raises
 * NotImplementedError, a QLoRA plan's job runs train_lora.py, and training on A100s is bf16.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir, words } from '../../helpers/cli.js';

/** Script and config files a line names: words ending .py, .yaml, .json (flags' values included). */
function namedFiles(text: string): string[] {
  return [...text.matchAll(/(?:^|[\s'"=])([\w./-]+\.(?:py|yaml|json))(?=$|[\s'";])/gm)].map((m) => m[1] ?? '');
}

/** The launch lines of the emitted files, and the accelerate command README.txt states. */
function launchLines(dir: string, files: string[]): string {
  const read = (f: string): string => (files.includes(f) ? readFileSync(path.join(dir, f), 'utf8') : '');
  const sbatch = read('job.sbatch')
    .split('\n')
    .filter((l) => l.startsWith('exec '));
  const readme = read('README.txt')
    .split('\n')
    .filter((l) => l.includes('accelerate launch'));
  const megatron = read('megatron.sh').replace(/\bpretrain_gpt\.py\b/g, '');
  return [...sbatch, read('torchrun.sh'), read('deepspeed.sh'), megatron, read('launch_lora.sh'), ...readme].join('\n');
}

async function emit(args: string): Promise<{ dir: string; files: string[] }> {
  const root = tempDir();
  const dir = path.join(root, 'out');
  const r = await cli([...args.split(' '), ...words`--devices none --emit ${dir} --db ${path.join(root, 'db')}`]);
  expect(r.code, r.stderr).toBe(0);
  return { dir, files: readdirSync(dir).sort() };
}

describe('plan --emit: scripts that run', () => {
  it('a 7B model on 8 A100s: every launch line names a written file, bf16, no NotImplementedError', async () => {
    const { dir, files } = await emit('plan --workload llama-7b --virtual 8xA100');
    const named = [...new Set(namedFiles(launchLines(dir, files)))];
    expect(named).toEqual(
      expect.arrayContaining(['train_pipeline.py', 'train_deepspeed.py', 'ds_config.json', 'train_accelerate.py']),
    );
    for (const f of named) expect(files, `${f} is named by a launch line`).toContain(f);
    for (const f of files) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toContain('NotImplementedError');
    expect(readFileSync(path.join(dir, 'job.sbatch'), 'utf8')).toMatch(/torchrun .* train_pipeline\.py\n/);
    expect(JSON.parse(readFileSync(path.join(dir, 'ds_config.json'), 'utf8'))).toHaveProperty('bf16.enabled', true);
    expect(readFileSync(path.join(dir, 'accelerate.yaml'), 'utf8')).toContain('mixed_precision: bf16');
    expect(readFileSync(path.join(dir, 'megatron-args.txt'), 'utf8')).toMatch(/--bf16 .*--hidden-size 4096 /);
    expect(readFileSync(path.join(dir, 'train_pipeline.py'), 'utf8')).toContain('"hidden_size": 4096,');
  }, 120_000);

  it("a QLoRA plan's job runs train_lora.py, written beside it", async () => {
    const { dir, files } = await emit('plan --workload llama-7b --mode finetune --adapter qlora --virtual 1xA100');
    const sbatch = readFileSync(path.join(dir, 'job.sbatch'), 'utf8');
    expect(sbatch).toMatch(/exec python train_lora\.py\n/);
    for (const f of new Set(namedFiles(launchLines(dir, files)))) expect(files).toContain(f);
    for (const f of files) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toContain('NotImplementedError');
  }, 120_000);
});
