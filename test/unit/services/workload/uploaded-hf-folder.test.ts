/**
 * A Hugging Face model folder uploaded without its weights (config.json's text, each safetensors
 * file's header and size) is stored as a folder added on the CLI is: the same description (the
 * architecture, the safetensors' exact parameters, dtype and quantization, the params warning),
 * kept in the store with no path, so describedEntry, fit and predict read it from the store alone.
 * Each hostile upload is one line naming the file.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import type { UploadedHfFolder, UploadedSafetensors } from '../../../../src-main/core/catalog/hf-model.js';
import { fitModel } from '../../../../src-main/services/plan/fit-service.js';
import { planWorkload } from '../../../../src-main/services/plan/plan-service.js';
import type { PlanRequest } from '../../../../src-main/services/plan/plan-request.js';
import {
  addUploadedHfFolder,
  addWorkload,
  describedEntry,
  resolveWorkload,
  storedWorkload,
} from '../../../../src-main/services/workload/workload-service.js';
import { tempDir } from '../../../helpers/cli.js';
import { tinyLlama } from '../../../helpers/hf-configs.js';
import {
  gptqLinear,
  llamaTensors,
  safetensorsHeader,
  writeTensors,
  type TensorSpec,
} from '../../../helpers/safetensors.js';

const TINY = tinyLlama(256);

/** One safetensors file as the app's picker sends it: its name, whole size and header text. */
function uploaded(fileName: string, tensors: readonly TensorSpec[]): UploadedSafetensors {
  const { header, dataBytes } = safetensorsHeader(tensors);
  const text = JSON.stringify(header);
  return { fileName, bytes: 8 + Buffer.byteLength(text) + dataBytes, header: text };
}

const folder = (config: unknown, ...safetensors: UploadedSafetensors[]): UploadedHfFolder => ({
  config: JSON.stringify(config),
  safetensors,
});

/** What a refusal says, or 'added'. */
function refusal(upload: UploadedHfFolder, name = 'm'): string {
  try {
    addUploadedHfFolder(openDatabase(':memory:'), upload, { name });
    return 'added';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('an uploaded Hugging Face folder', () => {
  it('is stored with its description and no path, and read back from the store alone', () => {
    const db = openDatabase(':memory:');
    const tensors = llamaTensors(TINY);
    const r = addUploadedHfFolder(db, folder(TINY, uploaded('model.safetensors', tensors)), { name: 'tiny' });
    expect(r.filePath).toBeNull();
    expect(r.stored).toMatchObject({ dtype: 'BF16', format: 'bf16', files: ['model.safetensors'], label: 'bf16' });
    const stored = storedWorkload(db, 'tiny');
    expect(stored).toMatchObject({ filePath: null, described: { weights: 'bf16', stored: { dtype: 'BF16' } } });
    // A same-named folder in the working folder is not what the name means.
    const cwd = process.cwd();
    const dir = tempDir('pdjv-upload-cwd-');
    mkdirSync(path.join(dir, 'tiny'));
    writeFileSync(path.join(dir, 'tiny', 'config.json'), 'not json');
    process.chdir(dir);
    try {
      const entry = describedEntry(db, 'tiny');
      expect(entry).toMatchObject({ name: 'tiny', kind: 'transformer', layers: 2, hidden: 256 });
      expect(resolveWorkload(db, 'tiny').workload.name).toBe('tiny');
      const fit = fitModel(db, { model: 'tiny', mode: 'inference' });
      expect(fit.params).toBe(r.stored?.params);
    } finally {
      process.chdir(cwd);
    }
  });

  it('is described as the same folder added on the CLI: parameters, weights, warnings', () => {
    // GPTQ weights and a missing layer: the quantization detected and the params warning given.
    const tensors = llamaTensors(TINY, 'F16', gptqLinear()).filter((t) => !t.name.startsWith('model.layers.1.mlp'));
    const dir = path.join(tempDir('pdjv-upload-cli-'), 'tiny-gptq');
    mkdirSync(dir);
    const config = { ...TINY, quantization_config: { quant_method: 'gptq', bits: 4 } };
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
    writeTensors(path.join(dir, 'model.safetensors'), tensors);
    const db = openDatabase(':memory:');
    const cli = addWorkload(db, dir, { name: 'from-cli' });
    const up = addUploadedHfFolder(db, folder(config, uploaded('model.safetensors', tensors)), { name: 'from-web' });
    rmSync(dir, { recursive: true });
    expect(up.stored).toEqual(cli.stored);
    expect(up.stored).toMatchObject({ quantization: 'gptq', bits: 4, format: 'int4' });
    const [a, b] = [storedWorkload(db, 'from-cli')?.described, storedWorkload(db, 'from-web')?.described];
    expect(b?.weights).toBe(a?.weights);
    expect(b?.params).toBe(a?.params);
    expect(b?.warnings).toHaveLength(1);
    expect(b?.warnings[0]).toMatch(/^from-web: its safetensors hold [\d,]+ parameters, config\.json describes/);
    // The folder's name, the workload's unless another is given.
    expect(a?.warnings[0]).toBe(b?.warnings[0]?.replace('from-web', 'tiny-gptq'));
    // Both read from the store now that the folder is gone.
    expect(describedEntry(db, 'from-cli')).toEqual({
      ...describedEntry(db, 'from-web'),
      name: 'from-cli',
      title: 'tiny-gptq',
      config: expect.any(String),
      sources: expect.any(Array),
    });
    expect(storedWorkload(db, 'from-web')?.workload.warnings).toEqual(b?.warnings);
  });

  it('is planned as the decoder it describes, served in the format its safetensors store unless the plan names one', () => {
    const config = { ...TINY, quantization_config: { quant_method: 'gptq', bits: 4 } };
    const tensors = llamaTensors(TINY, 'F16', gptqLinear());
    const db = openDatabase(':memory:');
    addUploadedHfFolder(db, folder(config, uploaded('model.safetensors', tensors)), { name: 'q4' });
    const base: PlanRequest = { workload: 'q4', devices: 'none', virtual: ['RTX 4090'], mode: 'inference', batch: 1 };
    const served = planWorkload(db, base);
    expect(served.problem.weights).toBe('int4');
    // Planned as the decoder it describes, as a folder named by path is: serving figures, an engine.
    expect(served.serving).not.toBeNull();
    expect(served.exports).toMatchObject({ kind: 'serving', launch: { args: expect.arrayContaining(['q4']) } });
    expect(planWorkload(db, { ...base, weights: 'fp8' }).problem.weights).toBe('fp8');
    // Training plans the model as described; the stored format is a serving default only.
    expect(planWorkload(db, { ...base, mode: 'training', batch: 2 }).problem.weights).toBeUndefined();
  });

  it('without safetensors is its config.json alone', () => {
    const db = openDatabase(':memory:');
    const r = addUploadedHfFolder(db, folder(TINY), { name: 'cfg' });
    expect(r.stored).toBeUndefined();
    expect(storedWorkload(db, 'cfg')?.described).toMatchObject({ stored: null, weights: null });
  });

  it('refuses each hostile upload with one line naming the file', () => {
    const good = uploaded('model.safetensors', llamaTensors(TINY));
    const cases: [UploadedHfFolder, string | RegExp][] = [
      [{ config: 'not json {', safetensors: [] }, /^m\/config\.json is not JSON \(/],
      [
        folder({ ...TINY, model_type: 'mamba\nx' }),
        /^m\/config\.json: config\.json model_type "mamba\\nx" is not supported; supported: llama, /,
      ],
      [folder(TINY, { ...good, header: '{"a": nope' }), /^m\/model\.safetensors: its safetensors header is not JSON/],
      [
        folder(TINY, { ...good, bytes: good.bytes - 1 }),
        /^m\/model\.safetensors: tensor "[\w.]+" data_offsets \[\d+,\d+\] fall outside the data area .*: the header lies$/,
      ],
      [
        folder(TINY, { ...good, bytes: 20 }),
        /^m\/model\.safetensors: its header says \d+ bytes but the file holds 12 after the length: the header lies$/,
      ],
      [
        folder(TINY, { ...good, bytes: 4 }),
        'm/model.safetensors is 4 bytes, too short to be a safetensors file (8-byte header length)',
      ],
      [folder(TINY, good, good), 'm/model.safetensors is given twice; give each safetensors file once'],
      [
        folder(TINY, manyTensors(200_000)),
        'm/many.safetensors: its safetensors header holds more than 100,000 tensors, the most one file may hold (real shards hold a few thousand)',
      ],
      [
        folder(TINY, ...[1, 2, 3, 4, 5].map((i) => manyTensors(90_000, `s${i}.safetensors`))),
        "m/s5.safetensors: the folder's safetensors hold more than 400,000 tensors, the most one model may hold",
      ],
    ];
    for (const [upload, expected] of cases) {
      const said = refusal(upload);
      expect(said.split('\n')).toHaveLength(1);
      if (typeof expected === 'string') expect(said).toBe(expected);
      else expect(said).toMatch(expected);
    }
  }, 60_000);
});

/** A header of `n` one-element f16 tensors, laid end to end. */
function manyTensors(n: number, fileName = 'many.safetensors'): UploadedSafetensors {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`"t${i}":{"dtype":"F16","shape":[1],"data_offsets":[${2 * i},${2 * i + 2}]}`);
  const header = `{${parts.join(',')}}`;
  return { fileName, bytes: 8 + header.length + 2 * n, header };
}
