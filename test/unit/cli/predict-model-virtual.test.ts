/** predict-model on a datasheet GPU (--virtual): a generation served by its engine, and a family name's note. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';

const db = (): string => path.join(tempDir(), 'db.sqlite');

describe('predict-model --virtual', () => {
  it('predicts a generation (--mode generate) on a datasheet GPU, as its help offers', async () => {
    const help = await cli(['predict-model', '--help']);
    expect(help.stdout).toMatch(/--virtual GPU/);
    expect(help.stdout).toMatch(/--mode inference\|training\|generate/);
    const r = await cli(['predict-model', 'llama-3.1-8b', '--mode', 'generate', '--virtual', 'RTX 4090', '--db', db()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^llama-3\.1-8b on RTX 4090 \(datasheet\): prompt \d+ \+ \d+ output tokens, batch 1$/);
    expect(r.stdout).toMatch(/^first token [\d.]+ m?s; decode step [\d.]+ m?s \([\d.]+ tokens\/s a sequence/m);
    expect(r.stdout).toMatch(/warning: NVIDIA GeForce RTX 4090 is from its datasheet, not measured/);
  });

  it('says which part a family name stands for, generating or not', async () => {
    const note =
      /warning: "H100" stands for NVIDIA H100 SXM5 80GB \(of 2 that match: SXM before PCIe, then the most memory\)/;
    const g = await cli(['predict-model', 'gpt2-small', '--mode', 'generate', '--virtual', 'H100', '--db', db()]);
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(note);
    expect(g.stdout).toMatch(/warning: NVIDIA H100 SXM5 80GB is from its datasheet/);
    const p = await cli(['predict-model', 'gpt2-small', '--virtual', 'H100', '--json', '--db', db()]);
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout).warnings[0]).toMatch(/^"H100" stands for NVIDIA H100 SXM5 80GB/);
  });

  it('states the sequence it assumed as plan does, by the one default rule, and names it in --json', async () => {
    const t = await cli(['predict-model', 'llama-3.1-8b', '--virtual', 'RTX 4090', '--db', db()]);
    expect(t.code).toBe(0);
    // The catalog model at its context, capped at 8,192 tokens for a decoder (core/catalog/default-sequence.ts).
    expect(t.stdout.split('\n')[0]).toBe(
      "Assumes: sequence 8,192 tokens (the model's default, of its 131,072), batch 1 (default), bf16",
    );
    const asked = await cli(['predict-model', 'llama-3.1-8b', '--virtual', 'RTX 4090', '--seq', '2048', '--db', db()]);
    expect(asked.stdout.split('\n')[0]).toBe('Assumes: sequence 2,048 tokens, batch 1 (default), bf16');
    const j = await cli([
      'predict-model',
      'bert-base',
      '--virtual',
      'RTX 4090',
      '--batch',
      '4',
      '--json',
      '--db',
      db(),
    ]);
    expect(JSON.parse(j.stdout).assumptions).toMatchObject({
      sequence: { value: 128, asked: false },
      batch: { value: 4, asked: true },
    });
  });

  it('refuses a name several unrelated GPUs share, pointing to pipedejavu gpus', async () => {
    const r = await cli(['predict-model', 'gpt2-small', '--virtual', '6000', '--db', db()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/several datasheet GPUs match "6000".*\(name one; see `pipedejavu gpus`\)/);
  });
});
