/** A real model run on ONNX Runtime's CPU EP, told per node and per layer beside the prediction. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../../../src-main/adapters/ort/kernel-runner.js';
import { layerComparison, measureModel, passWarnings } from '../../../../src-main/services/measure/measure-model-service.js';
import { trainPredictors } from '../../../../src-main/services/predict/predictor-service.js';
import { resolveWorkload } from '../../../../src-main/services/workload/workload-service.js';
import { makeReadOnly } from '../../../helpers/read-only.js';
import { seededDb } from '../../../helpers/seeded-store.js';

const cls = path.resolve('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx');
const inputs = { x: [1, 3, 48, 192] };

describe('measureModel and layerComparison (real ORT)', () => {
  const runner = new KernelRunner({ runnerPath: 'dist/kernel-runner.js' });
  afterAll(() => runner.close());

  it('sums the measured nodes by the workload’s layers, beside each layer’s prediction', async () => {
    const db = seededDb();
    trainPredictors(db, ['roofline']);
    const m = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1 });
    expect(m.medianMs).toBeGreaterThan(0);
    const layers = layerComparison(db, cls, m, { inputs });
    const { workload } = resolveWorkload(db, cls, { inputs });
    expect(layers.map((l) => l.name)).toEqual(workload.layers.map((l) => l.name));
    const named = new Set(workload.nodes.map((n) => n.name));
    // Every executed node's time is in a node of the file, fused and renamed ones too.
    const measuredNamed = m.fileNodes.filter((n) => named.has(n.name)).reduce((s, n) => s + n.measuredUs, 0);
    expect(measuredNamed).toBeCloseTo(
      m.nodes.reduce((s, n) => s + n.measuredUs, 0),
      6,
    );
    expect(layers.reduce((s, l) => s + l.measuredUs, 0)).toBeCloseTo(measuredNamed, 6);
    expect(layers.some((l) => l.measuredUs > 0)).toBe(true);
    expect(layers.every((l) => l.predictedUs >= 0)).toBe(true);
  });

  it('names its rows by the file’s nodes, as predict-model does, with ONNX Runtime’s names beside', async () => {
    const db = seededDb();
    trainPredictors(db, ['roofline']);
    const m = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1 });
    const { workload } = resolveWorkload(db, cls, { inputs });
    const fileNames = new Set(workload.nodes.map((n) => n.name));
    // One count of "nodes": the file's, as `workload add` and predict-model print it.
    expect(m.fileNodeCount).toBe(workload.nodes.length);
    expect(m.fileNodes.length).toBeGreaterThan(10);
    for (const row of m.fileNodes) expect(fileNames.has(row.name)).toBe(true);
    // predict-model's node rows carry the same names and the same predicted times.
    const predicted = new Map((m.predicted?.nodes ?? []).map((n) => [n.name, n.timeUs]));
    for (const row of m.fileNodes) expect(row.predictedUs).toBe(predicted.get(row.name) ?? null);
    // Every executed node that ran is in one file row, and the times add up.
    expect(m.fileNodes.flatMap((r) => r.executed).length).toBe(m.nodes.length);
    const sum = (xs: readonly { measuredUs: number }[]): number => xs.reduce((a, x) => a + x.measuredUs, 0);
    expect(sum(m.fileNodes)).toBeCloseTo(sum(m.nodes), 6);
    // What ORT did, asked of ORT: where it renamed or fused, the executed node names the file's nodes it computes.
    for (const n of m.nodes) {
      for (const f of n.fileNodes) expect(fileNames.has(f)).toBe(true);
      if (n.opType === 'ReorderInput') expect(n.inserted).toBe(`inserted by ORT before ${n.fileNodes[0]}`);
      else if (n.opType === 'ReorderOutput') expect(n.inserted).toBe(`inserted by ORT after ${n.fileNodes[0]}`);
      else expect(n.inserted).toBeNull();
    }
    const renamed = m.nodes.filter((n) => !fileNames.has(n.name));
    for (const n of renamed) expect(n.fileNodes.length).toBeGreaterThan(0);
  });

  it('keeps the ORT trace of the traced pass as a Chrome trace naming the model’s nodes', async () => {
    const db = seededDb();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-trace-'));
    const file = path.join(dir, 'cls.trace.json');
    const m = await measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1, traceFile: file });
    expect(m.trace?.file).toBe(file);
    // Only the trace itself is left in the folder: no temporary sibling.
    expect(readdirSync(dir)).toEqual(['cls.trace.json']);
    const events = JSON.parse(readFileSync(file, 'utf8')) as {
      name: unknown;
      ph: unknown;
      ts: unknown;
      cat?: unknown;
    }[];
    expect(Array.isArray(events)).toBe(true);
    expect(events.length).toBe(m.trace?.events);
    for (const e of events) {
      expect(typeof e.name).toBe('string');
      expect(typeof e.ph).toBe('string');
      expect(typeof e.ts).toBe('number');
    }
    // One warm-up and the attribution runs.
    expect(events.filter((e) => e.name === 'model_run')).toHaveLength(m.trace?.runs ?? -1);
    expect(m.trace?.runs).toBeGreaterThanOrEqual(2);
    const traced = new Set(
      events
        .filter((e) => e.cat === 'Node' && String(e.name).endsWith('_kernel_time'))
        .map((e) => String(e.name).slice(0, -'_kernel_time'.length)),
    );
    const { workload } = resolveWorkload(db, cls, { inputs });
    const named = workload.nodes.filter((n) => traced.has(n.name));
    expect(named.length).toBeGreaterThan(10);
    // ORT numbers the nodes it inserts per session (`ReorderOutput_token_238`): on AVX2's 8-wide
    // NCHWc the optimize session and the profiled one number them apart, so those are matched
    // by their outputs, not their names. Every other node keeps its name.
    const generated = (name: string): boolean => /_token_\d+$/.test(name);
    for (const n of m.nodes) if (!generated(n.name)) expect(traced.has(n.name), n.name).toBe(true);
    const inserted = m.nodes.filter((n) => generated(n.name)).length;
    expect(inserted).toBeLessThanOrEqual([...traced].filter(generated).length);
    // The runner's own copy is gone from its trace folder.
    const runnerDir = (runner as unknown as { traceDir: string }).traceDir;
    expect(readdirSync(runnerDir)).toEqual([]);
  });

  it('refuses a trace file it could not write in one line, before running anything', async (ctx) => {
    const db = seededDb();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pdjv-trace-'));
    const run = (traceFile: string): Promise<unknown> =>
      measureModel(db, runner, cls, { inputs, device: 'cpu', threads: 1, traceFile });
    const missing = path.join(dir, 'nope', 't.json');
    await expect(run(missing)).rejects.toThrow(
      new RegExp(`^cannot write ${missing}: its directory ${path.join(dir, 'nope')} does not exist$`),
    );
    mkdirSync(path.join(dir, 'sub'));
    await expect(run(path.join(dir, 'sub'))).rejects.toThrow(/: it is a directory$/);
    writeFileSync(path.join(dir, 'plain'), 'x');
    await expect(run(path.join(dir, 'plain', 't.json'))).rejects.toThrow(/plain is not a directory$/);
    expect(readdirSync(dir).sort()).toEqual(['plain', 'sub']);
    expect(readdirSync(path.join(dir, 'sub'))).toEqual([]);
    const ro = makeReadOnly(path.join(dir, 'sub'));
    if ('unavailable' in ro) {
      ctx.skip(ro.unavailable);
      return;
    }
    try {
      const target = path.join(dir, 'sub', 't.json');
      await expect(run(target)).rejects.toThrow(
        /^cannot write .*t\.json: its directory .*sub is not writable \(E[A-Z]+\)$/,
      );
      expect(existsSync(target)).toBe(false);
    } finally {
      ro.undo();
    }
    expect(readdirSync(path.join(dir, 'sub'))).toEqual([]);
  });

  it('refuses a catalog model in one line: it has no weights to run', async () => {
    await expect(measureModel(seededDb(), runner, 'gpt2-small', { device: 'cpu' })).rejects.toThrow(
      /catalog models have no weights to run/,
    );
  });
});

describe('passWarnings', () => {
  it('says nothing when the untraced passes agree within 10%, or there is one', () => {
    expect(passWarnings([1000, 1090])).toEqual([]);
    expect(passWarnings([5000])).toEqual([]);
  });

  it('warns, with both medians, when one pass ran slow', () => {
    const [w] = passWarnings([51_000, 98_000]);
    expect(w).toContain('disagree by 92%');
    expect(w).toContain('51.000 and 98.000 ms');
  });
});
