/**
 * A llama.cpp model file as a workload: a real GGUF header (written with Hugging Face's GGUF
 * serializer, no weights) planned and predicted through the CLI, and files that are not GGUF.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GGUFValueType, serializeGgufMetadata } from '@huggingface/gguf';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

const u32 = (value: number) => ({ value, type: GGUFValueType.UINT32 });

function writeLlamaGguf(
  file: string,
  over: Record<string, { value: number | bigint; type: GGUFValueType }> = {},
): void {
  const metadata = {
    version: { value: 3, type: GGUFValueType.UINT32 },
    tensor_count: { value: 0n, type: GGUFValueType.UINT64 },
    kv_count: { value: 11n, type: GGUFValueType.UINT64 },
    'general.architecture': { value: 'llama', type: GGUFValueType.STRING },
    'general.name': { value: 'Meta Llama 3.1 8B Instruct', type: GGUFValueType.STRING },
    'general.file_type': u32(15),
    'llama.block_count': u32(32),
    'llama.context_length': u32(131072),
    'llama.embedding_length': u32(4096),
    'llama.feed_forward_length': u32(14336),
    'llama.attention.head_count': u32(32),
    'llama.attention.head_count_kv': u32(8),
    'llama.vocab_size': u32(128256),
    ...over,
  };
  writeFileSync(file, serializeGgufMetadata(metadata as Parameters<typeof serializeGgufMetadata>[0]));
}

describe('a .gguf file as a workload', () => {
  it('predicts generation with the file’s weight format and plans serving it', async () => {
    const dir = tempDir();
    const db = path.join(dir, 's.db');
    seededDb(db).close();
    await cli(['train', '--db', db, '--predictor', 'linear']);
    const file = path.join(dir, 'Llama-3.1-8B-Instruct-Q4_K_M.gguf');
    writeLlamaGguf(file);

    const gen = await cli([
      ...['predict-model', file, '--db', db, '--device', 'cpu', '--mode', 'generate'],
      ...['--prompt', '128', '--tokens', '8', '--json'],
    ]);
    expect(gen.stderr).toBe('');
    const g = JSON.parse(gen.stdout) as { workload: string; weights: string; weightBytes: number; dtype: string };
    expect(g).toMatchObject({ workload: 'Llama-3.1-8B-Instruct-Q4_K_M', weights: 'q4_k', dtype: 'bf16' });
    expect(g.weightBytes).toBe((8_030_261_248 * 144) / 256);

    const plan = await cli([
      ...['plan', '--db', db, '--workload', file, '--devices', 'none', '--virtual', 'RTX 4090'],
      ...['--mode', 'inference', '--batch', '1', '--seq', '4096', '--json'],
    ]);
    expect(plan.code).toBe(0);
    const p = JSON.parse(plan.stdout) as { warnings: string[] };
    expect(p.warnings).toContain('Llama-3.1-8B-Instruct-Q4_K_M: weights held as q4_k, 0.5625 bytes per parameter');
    expect(p.warnings).toContain(
      'Llama-3.1-8B-Instruct-Q4_K_M: inference memory holds the KV cache of 4352 tokens per sequence (prompt 4096 + 256 output), 544 MiB at batch 1 (2 x 32 layers x 8 KV heads x 128 x bf16)',
    );
  });

  it('refuses what is not a GGUF file in one line', async () => {
    const dir = tempDir();
    const db = path.join(dir, 's.db');
    seededDb(db).close();
    const junk = path.join(dir, 'junk.gguf');
    writeFileSync(junk, 'not a model at all');
    const r = await cli(['predict-model', junk, '--db', db, '--device', 'cpu', '--mode', 'generate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pipedejavu: error: \S+junk\.gguf is not a GGUF file it can read \(.+\)\n$/);
    const folder = path.join(dir, 'folder.gguf');
    mkdirSync(folder);
    const d = await cli(['plan', '--db', db, '--workload', folder, '--mode', 'inference']);
    expect(d.stderr).toBe(`pipedejavu: error: ${folder} is a folder, not a GGUF file\n`);
    const missing = await cli(['plan', '--db', db, '--workload', path.join(dir, 'none.gguf'), '--mode', 'inference']);
    expect(missing.stderr).toBe(`pipedejavu: error: ${path.join(dir, 'none.gguf')}: no such file\n`);
  });

  it('refuses a tiny header with absurd hyper-parameters in one line, at once (the real CLI, bounded)', async () => {
    const dir = tempDir();
    const db = path.join(dir, 's.db');
    seededDb(db).close();
    await cli(['train', '--db', db, '--predictor', 'linear']);
    const plan = (file: string): { stderr: string; status: number | null; signal: string | null } => {
      const r = spawnSync(
        process.execPath,
        [
          ...['--max-old-space-size=512', 'bin/pipedejavu.js', 'plan', '--db', db, '--workload', file],
          ...['--devices', 'none', '--virtual', 'RTX 4090', '--mode', 'inference', '--batch', '1', '--seq', '128'],
        ],
        { encoding: 'utf8', timeout: 20_000 },
      );
      return { stderr: r.stderr, status: r.status, signal: r.signal };
    };
    const layers = path.join(dir, 'layers.gguf');
    writeLlamaGguf(layers, { 'llama.block_count': u32(1_000_000_000) });
    expect(plan(layers)).toEqual({
      stderr: `pipedejavu: error: ${layers}: GGUF metadata llama.block_count 1000000000 is out of range (1..256)\n`,
      status: 1,
      signal: null,
    });
    const ffn = path.join(dir, 'ffn.gguf');
    writeLlamaGguf(ffn, { 'llama.feed_forward_length': { value: 2n ** 50n, type: GGUFValueType.UINT64 } });
    expect(plan(ffn)).toEqual({
      stderr: `pipedejavu: error: ${ffn}: GGUF metadata llama.feed_forward_length 1125899906842624 is out of range (1..1048576)\n`,
      status: 1,
      signal: null,
    });
  });
});
