import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ONNX_BYTES, readOnnxModel, readOnnxStructure } from '../../../../src-main/adapters/files/read-onnx.js';
import { UserError } from '../../../../src-main/core/errors.js';
import { workloadFromOnnx } from '../../../../src-main/core/workload/from-onnx.js';
import { cnnModel, externalDataModel } from '../../core/workload/sample-models.js';

const dir = mkdtempSync(join(tmpdir(), 'read-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

describe('reading an ONNX file', () => {
  it('reads a model once and hands back its bytes and parsed model', () => {
    const bytes = cnnModel();
    const p = file('cnn.onnx', bytes);
    const { bytes: read, model } = readOnnxModel(p);
    expect(new Uint8Array(read)).toEqual(bytes);
    expect(model.graph.nodes).toHaveLength(11);
    expect(workloadFromOnnx(readOnnxModel(p).bytes, { name: 'cnn', dims: { N: 1 } }).nodes).toHaveLength(11);
  });

  it('says what is wrong with the path', () => {
    expect(message(() => readOnnxModel(join(dir, 'missing.onnx')))).toBe(`no such file: ${join(dir, 'missing.onnx')}`);
    const sub = join(dir, 'folder.onnx');
    mkdirSync(sub);
    expect(message(() => readOnnxModel(sub))).toBe(`${sub} is a directory, not an ONNX model file`);
    const empty = file('empty.onnx', '');
    expect(message(() => readOnnxModel(empty))).toBe(`${empty} is empty, not an ONNX model`);
  });

  it('refuses files over the 2 GiB protobuf limit without reading them', () => {
    const huge = join(dir, 'huge.onnx');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_ONNX_BYTES + 1); // sparse: takes no disk space
    expect(message(() => readOnnxModel(huge))).toMatch(
      /huge\.onnx is 2\.0 GiB, over the 2\.0 GiB an ONNX \(protobuf\) file can hold; save the model with its weights as external data/,
    );
    const bytes = cnnModel();
    const small = file('small.onnx', bytes);
    expect(message(() => readOnnxModel(small, { maxBytes: 1000 }))).toMatch(
      new RegExp(`small\\.onnx is ${bytes.length} bytes, over the 1000 bytes`),
    );
  });

  it('prefixes parse errors with the file: a JSON file renamed, a truncated download', () => {
    const json = file('config.onnx', '{"architectures": ["BertModel"], "hidden_size": 768}');
    expect(message(() => readOnnxModel(json))).toBe(`${json}: not an ONNX model: it is a JSON text file`);
    const bytes = cnnModel();
    const cut = file('cut.onnx', bytes.subarray(0, bytes.length - 100));
    expect(message(() => readOnnxModel(cut))).toMatch(new RegExp(`^${cut}: the ONNX file is truncated`));
  });

  it('checks that external-data files exist next to the model', () => {
    const sub = join(dir, 'ext');
    mkdirSync(sub);
    const p = join(sub, 'model.onnx');
    writeFileSync(p, externalDataModel('model.weights'));
    expect(message(() => readOnnxModel(p))).toBe(
      `${p} keeps weights in the external data file "model.weights", which is missing (looked for ${join(sub, 'model.weights')}); copy it next to the model`,
    );
    writeFileSync(join(sub, 'model.weights'), new Uint8Array(48));
    const { model } = readOnnxModel(p);
    expect(model.externalFiles).toEqual(['model.weights']);
    expect(workloadFromOnnx(readOnnxModel(p).bytes, { name: 'ext' }).paramBytes).toBe(48);
  });

  it('refuses external-data locations outside the model folder before looking for them', () => {
    const sub = join(dir, 'escape');
    mkdirSync(sub);
    for (const location of ['/etc/passwd', '../secret.bin', 'a/../../b.bin', 'C:\\Windows\\win.ini']) {
      const p = join(sub, 'model.onnx');
      writeFileSync(p, externalDataModel(location));
      expect(message(() => readOnnxModel(p))).toBe(
        `${p} names an external data file outside the model's folder ("${location}"); external data must lie next to the model`,
      );
    }
  });

  it('refuses devices and FIFOs without reading or blocking on them', () => {
    expect(message(() => readOnnxModel('/dev/zero'))).toBe(
      '/dev/zero is not a regular file (a device, pipe or socket); save the ONNX model to a file first',
    );
    const fifo = join(dir, 'model.fifo');
    spawnSync('mkfifo', [fifo]);
    expect(message(() => readOnnxModel(fifo))).toMatch(/model\.fifo is not a regular file/);
  });

  describe('for its structure, piece by piece (large files)', () => {
    const whole = { structureFromBytes: 0, stripFromBytes: 0 };
    const fixtures = ['paddleocr-cls-mobile-v2.onnx', 'silero-vad-16k-op15.onnx'].map((f) =>
      join('test/fixtures/onnx', f),
    );

    it('gives the model the whole file gives, and the sha256 of the file', () => {
      for (const f of [...fixtures, file('cnn.onnx', cnnModel())]) {
        const { bytes, model } = readOnnxModel(f);
        const structure = readOnnxStructure(f, whole);
        expect(structure.model).toEqual(model);
        expect(structure.contentHash).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
    });

    it('refuses a graph larger than ONNX_LIMITS.structureBytes without its weights', () => {
      const f = file('cnn-structure.onnx', cnnModel());
      expect(message(() => readOnnxStructure(f, { ...whole, maxStructureBytes: 100 }))).toMatch(
        new RegExp(
          `^${f}: its graph without the weights is \\d+ bytes, over the cap of 100 bytes \\(ONNX_LIMITS\\.structureBytes\\)$`,
        ),
      );
    });

    it('says in one line what is wrong: truncated, not a model, external data missing', () => {
      const bytes = readFileSync(fixtures[0]!);
      const cut = file('cut-large.onnx', bytes.subarray(0, Math.floor(bytes.length / 2)));
      expect(message(() => readOnnxStructure(cut, whole))).toMatch(
        new RegExp(
          `^${cut}: the ONNX file is truncated \\(field \\d+ at byte \\d+ runs past the end of its message.*\\); download or export it again$`,
        ),
      );
      const json = file('config-large.onnx', '{"architectures": ["BertModel"]}');
      expect(message(() => readOnnxStructure(json, whole))).toMatch(new RegExp(`^${json}: not an ONNX model: `));
      const sub = join(dir, 'ext-large');
      mkdirSync(sub);
      const p = join(sub, 'model.onnx');
      writeFileSync(p, externalDataModel('model.weights'));
      expect(message(() => readOnnxStructure(p, whole))).toMatch(
        /keeps weights in the external data file "model\.weights", which is missing/,
      );
    });
  });
});
