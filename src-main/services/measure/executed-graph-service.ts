/**
 * The graph ONNX Runtime really executes for a model on a device: ORT writes it when a
 * session is created with `optimizedModelFilePath` (fusions, NCHWc convs and the reorders
 * around them). It is made once per model, execution provider, thread count and ORT
 * version, in the kernel-runner child, and kept next to the store; weights go to a side
 * file that is deleted at once (only the graph and its small constants are read).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseOnnxModel, type OnnxModel } from '../../core/onnx/onnx-parser.js';
import type { Database } from '../../adapters/store/types.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import type { KernelRunnerApi } from '../../adapters/ort/kernel-runner.js';

/** A runner that has ORT write the graph it executes. */
export type OptimizingRunner = Pick<KernelRunnerApi, 'start' | 'optimize'>;

export type ExecutedGraph = { ok: true; model: OnnxModel; cached: boolean } | { ok: false; reason: string };

/** Where executed graphs are kept: beside a file store, in the temp folder for an in-memory one. */
function executedGraphDir(db: Database): string {
  const name = db.name;
  const base = name && name !== ':memory:' && name !== '' ? path.dirname(name) : os.tmpdir();
  return path.join(base, 'executed-graphs');
}

function cacheKey(modelBytes: Uint8Array, ep: EpConfig, ortVersion: string): string {
  const hash = createHash('sha256').update(modelBytes).digest('hex').slice(0, 24);
  const where = 'threads' in ep ? `${ep.name}-${ep.threads}t` : `${ep.name}-${ep.deviceId}`;
  return `${hash}-${where}-ort${ortVersion.replace(/[^0-9A-Za-z.]/g, '_')}.onnx`;
}

/**
 * The executed graph of `modelPath` on `ep`, from the cache or made now. A model ORT cannot
 * load, or an EP that cannot run here, gives the reason instead (the caller then predicts
 * the graph in the file, and says so).
 */
export async function executedGraph(
  db: Database,
  runner: OptimizingRunner,
  modelPath: string,
  modelBytes: Uint8Array,
  ep: EpConfig,
): Promise<ExecutedGraph> {
  const info = await runner.start();
  const dir = executedGraphDir(db);
  const file = path.join(dir, cacheKey(modelBytes, ep, info.ortVersion));
  let cached = existsSync(file);
  if (!cached) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    const weights = path.join(dir, `${path.basename(tmp)}.weights`);
    try {
      const outcome = await runner.optimize({ modelPath, ep, outPath: tmp, weightsFile: path.basename(weights) });
      if (!outcome.ok) return { ok: false, reason: `ONNX Runtime could not optimize the model: ${outcome.error}` };
      renameSync(tmp, file);
    } finally {
      rmSync(tmp, { force: true });
      rmSync(weights, { force: true });
    }
    cached = false;
  }
  try {
    return { ok: true, model: parseOnnxModel(new Uint8Array(readFileSync(file))), cached };
  } catch (e) {
    rmSync(file, { force: true });
    return { ok: false, reason: `the executed graph ONNX Runtime wrote could not be read: ${(e as Error).message}` };
  }
}
