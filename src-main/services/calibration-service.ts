/**
 * The end of every profile: the calibration models (core/profiler/calibration-models.ts,
 * public architectures, never the models accuracy is reported on) run end to end on the
 * device, on the graph ONNX Runtime executes there, and each executed node's measured time
 * is kept with the run. Predictions then scale each op family by measured / predicted on
 * them (core/workload/calibration.ts).
 *
 * Each model is timed in CALIBRATION_ROUNDS sessions, the models interleaved, and keeps its
 * fastest round: a session's end to end can land in a slow mode for its whole life (at 2
 * threads here one model measured 1.20 ms in one session and 1.47-1.55 ms in four others),
 * and the kernels keep their lower median over rounds and the benchmark its lowest loop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calibrationModels, type CalibrationModel } from '../core/profiler/calibration-models.js';
import type { CalibrationNode, CalibrationRun } from '../core/workload/calibration.js';
import { mapExecutedNodes, nchwcChannelHints } from '../core/workload/executed-graph.js';
import { importOnnxModel } from '../core/workload/from-onnx.js';
import { parseOnnxModel } from '../core/onnx/onnx-parser.js';
import { summarize, type StoppingRule } from '../core/profiler/timing-stats.js';
import type { Workload } from '../core/workload/types.js';
import type { Database } from '../adapters/store/types.js';
import type { ModelJob, ModelOutcome } from '../adapters/ort/protocol.js';
import type { EpConfig } from '../core/domain/execution-provider.js';
import { executedGraph, type OptimizingRunner } from './executed-graph-service.js';
import { attributeNodes, type AttributionOverhead } from './model-attribution.js';
import { ioBytes } from '../core/workload/predict-workload.js';

export interface CalibratingRunner extends OptimizingRunner {
  runModel(job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome>;
}

/** Sessions per calibration model; the fastest is kept. */
export const CALIBRATION_ROUNDS = 3;
const RULE: StoppingRule = { warmupRuns: 3, minRepetitions: 10, maxRepetitions: 200, targetCi: 0.02, budgetMs: 400 };
const ATTRIBUTION_RUNS = 5;

type OkOutcome = Extract<ModelOutcome, { ok: true }>;

/** A calibration model ready to time: its file and the graph ORT runs on this device. */
interface Prepared {
  cm: CalibrationModel;
  file: string;
  ran: Workload;
  best: OkOutcome | null;
  error: string | null;
}

/** Runs every calibration model; what could not run is said in the notes and left out. */
export async function calibrateDevice(
  db: Database,
  runner: CalibratingRunner,
  ep: EpConfig,
  overhead: AttributionOverhead | null,
  aborted: () => boolean,
): Promise<{ runs: CalibrationRun[]; notes: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-calibration-'));
  const notes: string[] = [];
  try {
    const prepared: Prepared[] = [];
    for (const cm of calibrationModels()) {
      if (aborted()) break;
      const p = await prepare(db, runner, ep, dir, cm);
      if (typeof p === 'string') notes.push(p);
      else prepared.push(p);
    }
    for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
      for (const p of prepared) {
        if (aborted()) break;
        await timeRound(runner, ep, p);
      }
    }
    const runs: CalibrationRun[] = [];
    for (const p of prepared) {
      if (p.best) runs.push(calibrationRun(p.cm.name, p.best, p.ran, overhead));
      else if (p.error) notes.push(`calibration model ${p.cm.name} did not run: ${p.error}`);
    }
    return { runs, notes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The model written to a file and its executed graph, or why not. */
async function prepare(
  db: Database,
  runner: CalibratingRunner,
  ep: EpConfig,
  dir: string,
  cm: CalibrationModel,
): Promise<Prepared | string> {
  const file = path.join(dir, `${cm.name}.onnx`);
  writeFileSync(file, cm.model);
  const executed = await executedGraph(db, runner, file, cm.model, ep);
  if (!executed.ok) return `calibration model ${cm.name}: ${executed.reason}`;
  const source = parseOnnxModel(cm.model);
  const map = mapExecutedNodes(source, executed.model);
  const inputs = Object.fromEntries(cm.inputs.map((i) => [i.name, i.dims]));
  const nchwcChannels = nchwcChannelHints(source, executed.model, map);
  const ran = importOnnxModel(executed.model, { name: cm.name, inputs, nchwcChannels }).workload;
  return { cm, file, ran, best: null, error: null };
}

/** One session of the model; kept when its end to end is the fastest so far. */
async function timeRound(runner: CalibratingRunner, ep: EpConfig, p: Prepared): Promise<void> {
  const outcome = await runner.runModel({
    modelPath: p.file,
    inputs: p.cm.inputs,
    ep,
    rule: RULE,
    attributionRuns: ATTRIBUTION_RUNS,
  });
  if (!outcome.ok) {
    p.error ??= outcome.error;
    return;
  }
  if (!p.best || endToEnd(outcome) < endToEnd(p.best)) p.best = outcome;
}

const endToEnd = (o: OkOutcome): number => summarize(o.wallUs).medianUs;

function calibrationRun(
  model: string,
  outcome: OkOutcome,
  ranWorkload: Workload,
  overhead: AttributionOverhead | null,
): CalibrationRun {
  const ran = ranWorkload.nodes;
  const attributed = attributeNodes(outcome, ran, overhead, ioBytes(ranWorkload));
  const nodes: CalibrationNode[] = attributed.nodes.flatMap(({ index, measuredUs }) => {
    const n = ran[index];
    if (!n?.kernel || !n.family || !(measuredUs > 0)) return [];
    const { op, shape } = n.kernel;
    return [{ op, family: n.family, shape, dtype: n.dtype, flops: n.flops, bytes: n.bytes, measuredUs }];
  });
  return { model, endToEndUs: attributed.endToEndUs, nodes };
}
