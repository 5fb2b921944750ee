/**
 * Workload benchmark (issue 5 targets). Run: npm run bench:workload
 * 1. A fresh store: quick CPU profile of this machine, predictors trained on it alone.
 * 2. Real published ONNX models from npm packages (downloaded with `npm pack` into
 *    .tmp/bench-models): predicted end-to-end CPU latency first, then measured on ONNX
 *    Runtime; error per model (target: within ±10% for 4 of 5).
 * 3. Import and per-node costing of a ~100 MB model (target < 2 s).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fetchPackage, type PackageKey } from './npm-models.js';
import { KernelRunner } from '../src-main/adapters/ort/kernel-runner.js';
import { readOnnxModel } from '../src-main/adapters/files/read-onnx.js';
import { openDatabase } from '../src-main/adapters/store/open-database.js';
import { encodeModel, OnnxDataType, type NodeDef, type TensorDef } from '../src-main/core/onnx/model-builder.js';
import { workloadFromModel } from '../src-main/core/workload/from-onnx.js';
import { localProbeDeps } from '../src-main/services/machine/local-probe.js';
import { probeAndRecord } from '../src-main/services/machine/machine-service.js';
import { measureModel } from '../src-main/services/measure/measure-model-service.js';
import { trainPredictors } from '../src-main/services/predict/predictor-service.js';
import { profileDevice } from '../src-main/services/profile/profiler-service.js';
import { predictModel } from '../src-main/services/workload/workload-service.js';

const MODELS: {
  label: string;
  kind: string;
  pkg: PackageKey;
  file: string;
  inputs: Record<string, number[]>;
}[] = [
  {
    label: 'PaddleOCR cls (mobile v2)',
    kind: 'CNN',
    pkg: 'ocr',
    file: 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx',
    inputs: { x: [1, 3, 48, 192] },
  },
  {
    label: 'PaddleOCR det (PP-OCRv4)',
    kind: 'CNN + FPN',
    pkg: 'ocr',
    file: 'assets/ch_PP-OCRv4_det_infer.onnx',
    inputs: { x: [1, 3, 640, 640] },
  },
  {
    label: 'PaddleOCR rec (PP-OCRv4, SVTR)',
    kind: 'CNN + transformer',
    pkg: 'ocr',
    file: 'assets/ch_PP-OCRv4_rec_infer.onnx',
    inputs: { x: [1, 3, 48, 320] },
  },
  {
    label: 'openWakeWord embedding',
    kind: 'CNN',
    pkg: 'oww',
    file: 'models/embedding_model.onnx',
    inputs: { input_1: [1, 76, 32, 1] },
  },
  {
    label: 'openWakeWord melspectrogram',
    kind: 'STFT conv + matmul',
    pkg: 'oww',
    file: 'models/melspectrogram.onnx',
    inputs: { input: [1, 16000] },
  },
  {
    label: 'Silero VAD 16k op15',
    kind: 'recurrent (LSTM in If)',
    pkg: 'vad',
    file: 'weights/silero_vad_16k_op15.onnx',
    inputs: { input: [1, 512], state: [2, 1, 128] },
  },
];

const threads = os.cpus().length;
const dbPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'pdjv-wbench-')), 'bench.db');
const db = openDatabase(dbPath);
const { machineId } = await probeAndRecord(db, localProbeDeps, {});
const runner = new KernelRunner({});
const t0 = performance.now();
const prof = await profileDevice(
  { db, runner, now: () => new Date(), epUnavailable: () => null },
  { machineId, deviceKey: 'cpu', ep: { name: 'cpu', threads } },
  { suite: 'quick' },
);
const profileS = (performance.now() - t0) / 1000;
trainPredictors(db, ['roofline', 'analytical', 'linear', 'forest']);

const rows: {
  label: string;
  kind: string;
  nodes: number;
  predicted: Record<string, number>;
  measuredMs: number | null;
  nodesSumMs: number | null;
  error: string | null;
}[] = [];
const available = MODELS.filter((m) => existsSync(path.join(fetchPackage(m.pkg), m.file)));
for (const m of available) {
  const file = path.join(fetchPackage(m.pkg), m.file);
  const predicted: Record<string, number> = {};
  let nodes = 0;
  try {
    for (const p of ['forest', 'analytical', 'linear']) {
      const r = predictModel(db, file, { inputs: m.inputs, device: 'cpu', threads, predictor: p });
      predicted[p] = r.totalUs / 1000;
      nodes = r.nodes.length;
    }
    rows.push({ label: m.label, kind: m.kind, nodes, predicted, measuredMs: null, nodesSumMs: null, error: null });
  } catch (e) {
    rows.push({
      label: m.label,
      kind: m.kind,
      nodes,
      predicted,
      measuredMs: null,
      nodesSumMs: null,
      error: (e as Error).message,
    });
  }
}
// Measure only after every prediction: measure-model stores node measurements.
for (const m of available) {
  const row = rows.find((r) => r.label === m.label);
  if (!row || row.error) continue;
  try {
    const r = await measureModel(db, runner, path.join(fetchPackage(m.pkg), m.file), {
      inputs: m.inputs,
      device: 'cpu',
      threads,
    });
    row.measuredMs = r.medianMs;
    row.nodesSumMs = r.nodesSumMs;
  } catch (e) {
    row.error = (e as Error).message;
  }
}
await runner.close();

// The learning loop (not the target, and not held out): retrain with the measured nodes of
// these same models stored, then predict them again.
trainPredictors(db, ['forest']);
const relearned: Record<string, number> = {};
for (const m of available) {
  const row = rows.find((r) => r.label === m.label);
  if (!row || row.error) continue;
  relearned[m.label] =
    predictModel(db, path.join(fetchPackage(m.pkg), m.file), {
      inputs: m.inputs,
      device: 'cpu',
      threads,
      predictor: 'forest',
    }).totalUs / 1000;
}

// A ~100 MB model: twelve 1024x2048 fp32 weight matrices.
const big = path.join(path.dirname(dbPath), 'big.onnx');
const nodes: NodeDef[] = [];
const inits: TensorDef[] = [];
let prev = 'x';
for (let i = 0; i < 12; i++) {
  const [k, n] = i % 2 === 0 ? [1024, 2048] : [2048, 1024];
  inits.push({ name: `w${i}`, dataType: OnnxDataType.FLOAT, dims: [k, n], rawData: new Uint8Array(k * n * 4) });
  nodes.push({ opType: 'MatMul', inputs: [prev, `w${i}`], outputs: [`h${i}`], name: `mm${i}` });
  nodes.push({ opType: 'Relu', inputs: [`h${i}`], outputs: [`r${i}`], name: `relu${i}` });
  prev = `r${i}`;
}
writeFileSync(
  big,
  encodeModel({
    graph: {
      name: 'big',
      nodes,
      inputs: [{ name: 'x', elemType: OnnxDataType.FLOAT, dims: ['batch', 1024] }],
      outputs: [{ name: prev, elemType: OnnxDataType.FLOAT, dims: ['batch', 1024] }],
      initializers: inits,
    },
  }),
);
const times: number[] = [];
let bigBytes = 0;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const { bytes, model } = readOnnxModel(big);
  workloadFromModel(model, { name: 'big', dims: { batch: 8 } });
  times.push(performance.now() - t);
  bigBytes = bytes.length;
}

const f = (v: number | null | undefined, d = 2): string => (v === null || v === undefined ? '-' : v.toFixed(d));
const err = (p: number | undefined, m: number | null): string =>
  p === undefined || m === null ? '-' : `${(((p - m) / m) * 100).toFixed(1)}%`;
const within = rows.filter(
  (r) =>
    r.measuredMs !== null &&
    r.predicted.forest !== undefined &&
    Math.abs((r.predicted.forest - r.measuredMs) / r.measuredMs) <= 0.1,
).length;
const lines = [
  `Machine: ${os.cpus()[0]?.model ?? 'cpu'} x${threads}; Node ${process.version}; date ${new Date().toISOString().slice(0, 10)}`,
  `Quick CPU profile: ${profileS.toFixed(1)} s, ${prof.measured} kernels; predictors trained on it alone. ${threads} threads.`,
  '',
  '| model | kind | nodes | measured ms (median) | sum of ORT nodes ms | forest ms (error) | analytical ms (error) | linear ms (error) | forest after measure-model + retrain (in-sample) |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) =>
    r.error
      ? `| ${r.label} | ${r.kind} | ${r.nodes} | failed: ${r.error} | - | - | - | - | - |`
      : `| ${r.label} | ${r.kind} | ${r.nodes} | ${f(r.measuredMs, 3)} | ${f(r.nodesSumMs, 3)} | ${f(r.predicted.forest, 3)} (${err(r.predicted.forest, r.measuredMs)}) | ${f(r.predicted.analytical, 3)} (${err(r.predicted.analytical, r.measuredMs)}) | ${f(r.predicted.linear, 3)} (${err(r.predicted.linear, r.measuredMs)}) | ${f(relearned[r.label], 3)} (${err(relearned[r.label], r.measuredMs)}) |`,
  ),
  '',
  `Forest end-to-end within ±10%: ${within} of ${rows.filter((r) => r.measuredMs !== null).length} models (target: 4 of 5).`,
  `Import + per-node costing of a ${(bigBytes / 2 ** 20).toFixed(1)} MiB model: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')} (target < 2 s).`,
];
const text = lines.join('\n');
console.log(text);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  `bench/results/workload-${new Date().toISOString().slice(0, 10)}.json`,
  `${JSON.stringify({ rows, relearned, profileS, importMs: times, bigBytes, text }, null, 2)}\n`,
);
db.close();
