import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { ProfileRepo } from '../../../src-main/adapters/store/profile-repo.js';
import { cli, tempDir, words } from '../../helpers/cli.js';
import { seededDb } from '../../helpers/seeded-store.js';

const MODEL = 'test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx';

async function trainedStore(): Promise<string> {
  const db = path.join(tempDir(), 'w.db');
  seededDb(db).close();
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return db;
}

describe('workloads from the CLI', () => {
  it('adds a real ONNX model, lists it, and predicts it by name with totalMs in JSON', async () => {
    const db = await trainedStore();
    const add = await cli(['workload', 'add', MODEL, '--input', 'x=1x3x48x192', '--db', db]);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/^Added paddleocr-cls-mobile-v2: 471 nodes in \d+ layers/);
    const list = await cli(['workload', 'list', '--db', db, '--json']);
    expect((JSON.parse(list.stdout) as { workloads: { name: string }[] }).workloads.map((w) => w.name)).toEqual([
      'paddleocr-cls-mobile-v2',
    ]);
    const p = await cli(words`predict-model paddleocr-cls-mobile-v2 --device cpu --threads 1 --db ${db} --json`);
    expect(p.code).toBe(0);
    const j = JSON.parse(p.stdout) as {
      totalMs: number;
      layers: unknown[];
      nodes: unknown[];
      familyShare: Record<string, number>;
    };
    expect(j.totalMs).toBeGreaterThan(0);
    expect(j.nodes).toHaveLength(471);
    expect(j.familyShare.conv).toBeGreaterThan(0);
  });

  it('predicts catalog models for inference and training', async () => {
    const db = await trainedStore();
    const inf = await cli(words`predict-model bert-base --seq 128 --device cpu --db ${db} --json`);
    const train = await cli(words`predict-model bert-base --seq 128 --device cpu --mode training --db ${db} --json`);
    const a = JSON.parse(inf.stdout) as { totalMs: number; mode: string };
    const b = JSON.parse(train.stdout) as { totalMs: number; mode: string };
    expect(a.mode).toBe('inference');
    expect(b.totalMs).toBeCloseTo(3 * a.totalMs, 6);
    const table = await cli(['predict-model', 'resnet50', '--device', 'cpu', '--db', db]);
    // The image side and batch it assumed come first, as plan states them.
    expect(table.stdout).toMatch(
      /^Assumes: image 224 px \(default\), batch 1 \(default\), fp32\nresnet50 on .* \(inference, analytical predictor\): [\d.]+ ms/,
    );
  });

  it('measures the real model on ONNX Runtime, compares with the prediction, and stores its nodes once', async () => {
    const db = await trainedStore();
    const args = words`measure-model ${MODEL} --input x=1x3x48x192 --device cpu --threads 1 --db ${db} --json`;
    const first = await cli(args);
    expect(first.code).toBe(0);
    const m = JSON.parse(first.stdout) as {
      medianMs: number;
      passMediansMs: number[];
      nodesSumMs: number;
      frameworkOverheadMs: number;
      errorPct: number;
      stored: { inserted: number; alreadyStored: number };
      outputShapes: Record<string, number[]>;
    };
    expect(m.medianMs).toBeGreaterThan(0);
    // Two untraced passes around the ORT-traced one: the end to end is the lower.
    expect(m.passMediansMs).toHaveLength(2);
    expect(m.medianMs).toBe(Math.min(...m.passMediansMs));
    expect(m.nodesSumMs).toBeGreaterThan(0);
    expect(m.frameworkOverheadMs).toBeCloseTo(m.medianMs - m.nodesSumMs, 9);
    expect(Number.isFinite(m.errorPct)).toBe(true);
    expect(m.stored.inserted).toBeGreaterThan(0);
    expect(Object.values(m.outputShapes)).toContainEqual([1, 2]);
    const store = openDatabase(db);
    const fromModel = new ProfileRepo(store).listMeasurements({ source: 'model' }).length;
    store.close();
    expect(fromModel).toBe(m.stored.inserted);
    // The next training learns from the model's own nodes.
    const retrain = JSON.parse((await cli(['train', '--db', db, '--predictor', 'linear', '--json'])).stdout) as {
      trained: { samples: number }[];
    };
    expect(retrain.trained[0]?.samples).toBe(54 + m.stored.inserted);
    const again = JSON.parse((await cli(args)).stdout) as { stored: { inserted: number; alreadyStored: number } };
    expect(again.stored.inserted).toBe(0);
    expect(again.stored.alreadyStored).toBe(m.stored.inserted + m.stored.alreadyStored);
  });

  it('gives one clear line for bad model files and names the dim to bind', async () => {
    const db = await trainedStore();
    const dir = tempDir();
    const garbage = path.join(dir, 'garbage.onnx');
    writeFileSync(garbage, 'definitely not protobuf \u0000\u00ff'.repeat(20));
    const g = await cli(['workload', 'add', garbage, '--db', db]);
    expect(g.code).toBe(1);
    expect(g.stderr.trimEnd().split('\n')).toHaveLength(1);
    const unbound = await cli(['workload', 'add', MODEL, '--db', db]);
    expect(unbound.code).toBe(1);
    expect(unbound.stderr).toMatch(/--input|--dim/);
    const missing = await cli(['workload', 'add', path.join(dir, 'nope.onnx'), '--db', db]);
    expect(missing.stderr).toMatch(/no such file/i);
    const unknown = await cli(['predict-model', 'gpt5', '--device', 'cpu', '--db', db]);
    expect(unknown.stderr).toMatch(/neither an \.onnx file, a catalog model/);
    const list = await cli(['workload', 'list', '--db', db, '--json']);
    expect(JSON.parse(list.stdout)).toEqual({ workloads: [] });
  });
});
