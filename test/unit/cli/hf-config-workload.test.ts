/**
 * A Hugging Face model folder (config.json, written here from the published Llama 3.1 8B
 * hyper-parameters; no weights) planned, predicted and stored through the CLI, and the inputs it
 * refuses in one line.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { LLAMA_31_8B } from '../../helpers/hf-configs.js';
import { gptqLinear, llamaTensors, writeSafetensorsFile, writeTensors } from '../../helpers/safetensors.js';

function modelFolder(dir: string, name: string, config: unknown = LLAMA_31_8B): string {
  const folder = path.join(dir, name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(config));
  return folder;
}

function freshDb(dir: string): string {
  const db = path.join(dir, 's.db');
  seededDb(db).close();
  return db;
}

describe('a config.json or a model folder as a workload', () => {
  it('plans serving the model of a folder on a datasheet GPU, its KV cache from the config', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const folder = modelFolder(dir, 'Llama-3.1-8B');
    const plan = await cli([
      ...['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090'],
      ...['--mode', 'inference', '--batch', '1', '--seq', '4096', '--json'],
    ]);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    const p = JSON.parse(plan.stdout) as { warnings: string[] };
    expect(p.warnings.join('\n')).toMatch(/^Llama-3\.1-8B: inference memory holds the KV cache of 4352 tokens/m);
    // The config.json named directly gives the same model.
    const direct = await cli([
      ...['plan', '--db', db, '--workload', path.join(folder, 'config.json'), '--devices', 'none'],
      ...['--virtual', 'RTX 4090', '--mode', 'inference', '--batch', '1', '--seq', '4096', '--json'],
    ]);
    expect(direct.code).toBe(0);
  });

  it('stores it with workload add under the folder name, with its exact parameter count', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const folder = modelFolder(dir, 'my-llama');
    const r = await cli(['workload', 'add', folder, '--db', db, '--seq', '128', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'my-llama', params: 8_030_261_248 });
    const list = await cli(['workload', 'list', '--db', db]);
    expect(list.stdout).toContain('my-llama');
  });

  it('plans and predicts a stored folder by its name as it does by its path, the folder gone', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const folder = modelFolder(dir, 'my-llama');
    expect((await cli(['workload', 'add', folder, '--db', db])).code).toBe(0);
    const serve = ['--devices', 'none', '--virtual', 'RTX 4090', '--mode', 'inference', '--engine', 'vllm'];
    const byPath = await cli(['plan', '--db', db, '--workload', folder, ...serve]);
    rmSync(folder, { recursive: true });
    const byName = await cli(['plan', '--db', db, '--workload', 'my-llama', ...serve]);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toMatch(/^Engine: vLLM/m);
    expect(byName.stdout).not.toMatch(/torchrun|pretrain_gpt/);
    // The same figures, the launch line and search time aside (the line names the folder by path, the model by name).
    const figures = (out: string): string =>
      out
        .split('\n')
        .filter((l) => !/^Launch/.test(l))
        .join('\n')
        .replace(/searched in \d+ ms/, 'searched');
    expect(figures(byName.stdout)).toBe(figures(byPath.stdout));
    const generate = await cli([
      ...['predict-model', 'my-llama', '--db', db, '--virtual', 'RTX 4090', '--mode', 'generate', '--engine', 'vllm'],
    ]);
    expect(generate.stderr).toBe('');
    expect(generate.stdout).toMatch(/first token [\d.]+ ms; decode step/);
  });

  it('refuses a folder without config.json, an oversized config, an unknown model_type and absurd sizes in one line each', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const planOf = (workload: string): Promise<{ code: number; stderr: string }> =>
      cli([
        'plan',
        '--db',
        db,
        '--workload',
        workload,
        '--devices',
        'none',
        '--virtual',
        'RTX 4090',
        '--mode',
        'inference',
      ]);

    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    const e = await planOf(empty);
    expect(e.stderr).toBe(
      `pipedejavu: error: ${empty} holds no config.json: give a Hugging Face model folder, its config.json, an .onnx or a .gguf file\n`,
    );

    const big = modelFolder(dir, 'big', { ...LLAMA_31_8B, padding: 'x'.repeat(2 << 20) });
    const b = await planOf(big);
    expect(b.stderr).toMatch(
      /^pipedejavu: error: \S+big\/config\.json is \d+ bytes, too large to be a config\.json \(at most 1048576 bytes\)\n$/,
    );

    const mamba = modelFolder(dir, 'mamba', { ...LLAMA_31_8B, model_type: 'mamba' });
    const m = await cli(['workload', 'add', mamba, '--db', db]);
    expect(m.stderr).toMatch(
      /^pipedejavu: error: \S+mamba\/config\.json: config\.json model_type "mamba" is not supported; supported: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, phi3, gemma2, gemma3_text, gemma3, deepseek_v2, deepseek_v3, gpt2, gpt_neox, bert, roberta\n$/,
    );

    const deep = modelFolder(dir, 'deep', { ...LLAMA_31_8B, num_hidden_layers: 1_000_000 });
    const d = await planOf(deep);
    expect(d.stderr).toMatch(/config\.json num_hidden_layers 1000000 is out of range \(1\.\.256\)\n$/);
    expect(d.stderr.split('\n')).toHaveLength(2);

    const noHidden = modelFolder(dir, 'nohidden', { ...LLAMA_31_8B, hidden_size: undefined });
    const n = await cli(['predict-model', noHidden, '--db', db, '--virtual', 'RTX 4090']);
    expect(n.stderr).toMatch(/config\.json has no hidden_size \(a whole number from 1 to 131072\)\n$/);

    const notJson = modelFolder(dir, 'notjson', 'x');
    writeFileSync(path.join(notJson, 'config.json'), '{ not json');
    expect((await planOf(notJson)).stderr).toMatch(/^pipedejavu: error: \S+config\.json is not JSON \(.+\)\n$/);
  });
});

describe('a model folder with safetensors: the headers read, never the weights', () => {
  it('stores a bf16 Llama 3.1 8B with the headers exact count and shows its stored format', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const folder = modelFolder(dir, 'llama-st');
    // A real header over a sparse 16 GB data area.
    writeTensors(path.join(folder, 'model.safetensors'), llamaTensors(LLAMA_31_8B));
    const r = await cli(['workload', 'add', folder, '--db', db, '--seq', '128', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({
      name: 'llama-st',
      params: 8_030_261_248,
      stored: {
        params: 8_030_261_248,
        dtype: 'BF16',
        quantization: 'none',
        format: 'bf16',
        files: ['model.safetensors'],
      },
      warnings: [],
    });
    const text = await cli(['workload', 'add', folder, '--db', db, '--name', 'llama-st2', '--seq', '128']);
    expect(text.stdout).toContain('llama-st2: 8,030,261,248 parameters stored as bf16 in 1 safetensors file');
  });

  it('plans a GPTQ 4-bit folder with int4 weights, and warns when the description counts otherwise', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const config = { ...LLAMA_31_8B, torch_dtype: 'float16', quantization_config: { quant_method: 'gptq', bits: 4 } };
    const folder = modelFolder(dir, 'llama-gptq', config);
    // Without lm_head: 525,336,576 parameters fewer than the description.
    const tensors = llamaTensors(LLAMA_31_8B, 'F16', gptqLinear(4)).filter((t) => t.name !== 'lm_head.weight');
    writeTensors(path.join(folder, 'model.safetensors'), tensors);
    const plan = await cli([
      ...['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090'],
      ...['--mode', 'inference', '--batch', '1', '--seq', '4096', '--json'],
    ]);
    expect(plan.stderr).toBe('');
    const p = JSON.parse(plan.stdout) as { warnings: string[]; stored: unknown };
    expect(p.stored).toMatchObject({ params: 7_504_924_672, quantization: 'gptq', bits: 4, format: 'int4' });
    expect(p.warnings).toContain(
      'llama-gptq: its safetensors hold 7,504,924,672 parameters, config.json describes 8,030,261,248 (525,336,576 fewer in the weights); memory and time are planned from the description',
    );
    const text = await cli([
      ...['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090'],
      ...['--mode', 'inference', '--batch', '1', '--seq', '4096'],
    ]);
    expect(text.stdout).toContain(
      'llama-gptq: 7,504,924,672 parameters stored as GPTQ 4-bit (f16 elsewhere) in 1 safetensors file',
    );
  });

  it('refuses a header that lies about its length, in one line', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const folder = modelFolder(dir, 'liar');
    const file = path.join(folder, 'model.safetensors');
    writeSafetensorsFile(file, '{}', 0, { length: 2n ** 60n });
    const r = await cli(['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090']);
    expect(r.stderr).toBe(
      `pipedejavu: error: ${file}: its header says 1152921504606846976 bytes but the file holds 2 after the length: the header lies\n`,
    );
  });

  it('refuses a shard linked to a file outside the folder in one line, never printing a byte of it', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const secret = path.join(dir, 'secret.safetensors');
    const marker = 'SECRET-MARKER-c0ffee';
    writeSafetensorsFile(secret, { [marker]: { dtype: 'X', shape: [1], data_offsets: [0, 1] } }, 1);
    for (const target of [secret, '/etc/passwd']) {
      const folder = modelFolder(tempDir(), 'linked');
      symlinkSync(target, path.join(folder, 'model.safetensors'));
      for (const args of [
        ['plan', '--db', db, '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090'],
        ['workload', 'add', folder, '--db', db],
      ]) {
        const r = await cli(args);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          `pipedejavu: error: ${folder}: model.safetensors is a symlink leading outside the model folder (or to nothing); only files inside the folder are read\n`,
        );
        expect(r.stderr).not.toContain(marker);
      }
    }
  });

  it('says a folder named x.safetensors is a folder', async () => {
    const dir = tempDir();
    const db = freshDb(dir);
    const folder = modelFolder(dir, 'odd');
    mkdirSync(path.join(folder, 'x.safetensors'));
    const r = await cli(['workload', 'add', folder, '--db', db]);
    expect(r.stderr).toBe(`pipedejavu: error: ${folder}: x.safetensors is a folder, not a safetensors file\n`);
  });
});
