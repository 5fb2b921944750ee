/**
 * What `plan` and `fit` say they assumed, on their first lines and in JSON; one default sequence for
 * a catalog model and its config.json; serving plans told as serving, their rejections by what they hold.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { LLAMA_31_8B } from '../../helpers/hf-configs.js';

let dir = '';
let db = '';
let folder = '';
const onA4090 = ['--devices', 'none', '--virtual', 'RTX 4090'];

beforeAll(() => {
  dir = tempDir();
  db = path.join(dir, 's.db');
  folder = path.join(dir, 'Llama-3.1-8B');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(LLAMA_31_8B));
});

const lines = (text: string): string[] => text.split('\n');

describe('plan states its assumptions', () => {
  it('on its second line, after the devices, and the same for the catalog model and its config.json', async () => {
    // Batch 8 of 8,192 tokens does not fit one RTX 4090: the line is said all the same.
    const catalog = await cli(['plan', '--db', db, '--workload', 'llama-3.1-8b', ...onA4090]);
    expect(catalog.code).toBe(1);
    const line =
      "Assumes: sequence 8,192 tokens (the model's default, of its 131,072), batch 8 (default), bf16, mixed-precision Adam (16 bytes a parameter), fused attention (no s² scores kept), any training stack";
    expect(lines(catalog.stdout)[1]).toBe(line);
    const config = await cli(['plan', '--db', db, '--workload', folder, ...onA4090]);
    expect(lines(config.stdout)[1]).toBe(line);
    const json = await cli(['plan', '--db', db, '--workload', folder, ...onA4090, '--seq', '4096', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      assumptions: { sequence: { value: 4096, asked: true }, modelContext: 131072, dtype: 'bf16' },
    });
  });

  it('serving: the prompt, output, weights and engine, and one table of serving figures, no training columns', async () => {
    const r = await cli(['plan', '--db', db, '--workload', 'llama-3.1-8b', '--mode', 'inference', ...onA4090]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[1]).toMatch(
      /^Assumes: prompt 1,024 \+ 256 output tokens \(defaults\), batch 1 \(default\), bf16, engine vLLM \d+\.\d+\.\d+$/,
    );
    expect(r.stdout).toMatch(/^# +KIND +FIRST TOKEN +DECODE STEP +TOKENS\/S\/SEQ +REQUEST .*MAX CONCURRENT .*STAGES$/m);
    expect(r.stdout).toMatch(/^1 +single +\d/m);
    for (const training of ['SAMPLES/S', 'MICROBATCHES', 'BUBBLE', 'Stage compute per microbatch'])
      expect(r.stdout).not.toContain(training);
  });

  it('an inference plan that does not fit is rejected for its weights, never its optimizer', async () => {
    const r = await cli([
      ...['plan', '--db', db, '--workload', 'llama-3.1-70b', '--mode', 'inference'],
      ...['--devices', 'none', '--virtual', '2x4090'],
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('No plan fits these devices.');
    expect(r.stdout).toMatch(/needs \d+ GiB: \d+ GiB weights, \S+ \S+ activations, \S+ \S+ KV cache/);
    expect(r.stdout).not.toMatch(/optimizer|microbatch/);
  });
});

describe('fit states the context it assumed', () => {
  it('the model’s default, the same for the catalog model and its config.json, or the one asked', async () => {
    const head =
      "8.03 B parameters, inference, context 8,192 tokens (the model's default, of its 131,072) x 1 sequence;";
    const catalog = await cli(['fit', '--db', db, 'llama-3.1-8b', '--gpus', 'RTX 4090']);
    expect(catalog.code).toBe(0);
    expect(lines(catalog.stdout)[0]).toContain(`llama-3.1-8b: ${head}`);
    const config = await cli(['fit', '--db', db, folder, '--gpus', 'RTX 4090']);
    expect(lines(config.stdout)[0]).toContain(`Llama-3.1-8B: ${head}`);
    const asked = await cli(['fit', '--db', db, 'llama-3.1-8b', '--gpus', 'RTX 4090', '--context', '2048']);
    expect(lines(asked.stdout)[0]).toContain('inference, context 2,048 tokens x 1 sequence;');
    const help = await cli(['fit', '--help']);
    expect(help.stdout).toContain('at most 8,192 tokens for a decoder');
  });
});
