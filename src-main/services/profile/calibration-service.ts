/**
 * Part of every profile: the calibration models (core/profiler/calibration-models.ts,
 * public architectures, never the models accuracy is reported on) run end to end on the
 * device, on the graph ONNX Runtime executes there, and each executed node's measured time
 * is kept with the run. Predictions then scale each op family by measured / predicted on
 * them (core/workload/calibration.ts).
 *
 * Each model is timed in a few sessions (rounds), the models interleaved, the rounds spread
 * over the profile, and keeps its fastest round: a session's end to end can land in a slow mode
 * for its whole life (at 2 threads here one model measured 1.20 ms in one session and 1.47-1.55
 * ms in four others), a slow phase of the machine can last for seconds (one took every ratio of
 * a 2-thread calibration to its bound), and the kernels keep their lower median over rounds and
 * the benchmark its lowest loop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calibrationModels, type CalibrationModel } from '../../core/profiler/calibration-models.js';
import { kernelOfNode } from '../../core/kernels/from-node.js';
import type { KernelSpec } from '../../core/kernels/types.js';
import type { CalibrationNode, CalibrationRun } from '../../core/workload/calibration.js';
import { mapExecutedNodes, nchwcChannelHints } from '../../core/workload/executed-graph.js';
import { importOnnxModel } from '../../core/workload/from-onnx.js';
import { parseOnnxModel } from '../../core/onnx/onnx-parser.js';
import { median, summarize, type StoppingRule } from '../../core/profiler/timing-stats.js';
import type { Workload } from '../../core/workload/types.js';
import type { Database } from '../../adapters/store/types.js';
import type { ModelJob, ModelOutcome } from '../../adapters/ort/protocol.js';
import type { EpConfig } from '../../core/domain/execution-provider.js';
import { executedGraph, type OptimizingRunner } from '../measure/executed-graph-service.js';
import { attributeNodes, type AttributionOverhead } from '../measure/model-attribution.js';
import { ioBytes } from '../../core/workload/predict-workload.js';
// How much slower than its fastest session a round has to run, over the median model, to be noted.
import { SLOW_ROUND } from '../../core/profiler/machine-state.js';

export interface CalibratingRunner extends OptimizingRunner {
  runModel(job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome>;
}

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
  /** Each round's end to end (µs), null where the round did not run the model. */
  endToEndUs: (number | null)[];
}

/**
 * The calibration of one profile: every model prepared once, then timed one session per
 * `round()`. The profiler spreads the rounds over the whole profile (before the kernels,
 * between kernel rounds, after them), so that a slow phase of the machine spoils one round at
 * most; each model keeps its fastest. `dispose()` removes the model files.
 */
export class DeviceCalibration {
  private readonly notes: string[] = [];
  private rounds = 0;

  private constructor(
    private readonly runner: CalibratingRunner,
    private readonly ep: EpConfig,
    private readonly dir: string,
    private readonly prepared: Prepared[],
    private readonly aborted: () => boolean,
  ) {}

  /** Writes the models and finds the graph ORT runs for each; what cannot run is noted and left out. */
  static async prepare(
    db: Database,
    runner: CalibratingRunner,
    ep: EpConfig,
    aborted: () => boolean,
  ): Promise<DeviceCalibration> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-calibration-'));
    const calibration = new DeviceCalibration(runner, ep, dir, [], aborted);
    try {
      for (const cm of calibrationModels()) {
        if (aborted()) break;
        const p = await prepare(db, runner, ep, dir, cm);
        if (typeof p === 'string') calibration.notes.push(p);
        else calibration.prepared.push(p);
      }
    } catch (e) {
      calibration.dispose();
      throw e;
    }
    return calibration;
  }

  /** One session of every model, interleaved. */
  async round(): Promise<void> {
    this.rounds++;
    for (const p of this.prepared) {
      if (this.aborted()) return;
      await timeRound(this.runner, this.ep, p);
    }
  }

  /** Each model's fastest session, its nodes attributed; notes on what did not run and on slow rounds. */
  result(overhead: AttributionOverhead | null): { runs: CalibrationRun[]; notes: string[] } {
    const runs: CalibrationRun[] = [];
    const notes = [...this.notes];
    for (const p of this.prepared) {
      if (p.best) runs.push(calibrationRun(p.cm.name, p.best, p.ran, overhead));
      else if (p.error) notes.push(`calibration model ${p.cm.name} did not run: ${p.error}`);
    }
    const slow = slowRoundNote(this.prepared, this.rounds);
    if (slow) notes.push(slow);
    return { runs, notes };
  }

  /**
   * The micro-kernels of the nodes the calibration models execute, once each: profiled with the
   * suite, they let the calibration compare each node with its own kernel's time, so its ratios
   * say what running in a graph changes rather than where the predictor errs between its
   * sampled shapes (kernelOfNode).
   */
  kernels(): KernelSpec[] {
    const out = new Map<string, KernelSpec>();
    for (const p of this.prepared)
      for (const n of p.ran.nodes) {
        const k = n.kernel ? kernelOfNode(n.kernel, n.dtype) : null;
        if (k && !out.has(k.id)) out.set(k.id, k);
      }
    return [...out.values()];
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A note when a whole round ran slow (the median model's end to end at least SLOW_ROUND times
 * its fastest session): the machine was busy then, and the fastest rounds were kept.
 */
export function slowRoundNote(prepared: readonly { endToEndUs: (number | null)[] }[], rounds: number): string | null {
  const timed = prepared.map((p) => {
    const best = Math.min(...p.endToEndUs.filter((v): v is number => v !== null));
    return { runs: p.endToEndUs, best };
  });
  let worst = { round: 0, ratio: 1 };
  for (let r = 0; r < rounds; r++) {
    const ratios = timed.flatMap(({ runs, best }) => {
      const own = runs[r];
      return own != null && best > 0 ? [own / best] : [];
    });
    const ratio = ratios.length ? median(ratios) : 1;
    if (ratio > worst.ratio) worst = { round: r + 1, ratio };
  }
  if (worst.ratio < SLOW_ROUND) return null;
  const pct = Math.round((worst.ratio - 1) * 100);
  return `calibration round ${worst.round} of ${rounds} ran ${pct}% slower than the fastest (the machine was busy then); each calibration model kept its fastest round`;
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
  return { cm, file, ran, best: null, error: null, endToEndUs: [] };
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
    p.endToEndUs.push(null);
    return;
  }
  p.endToEndUs.push(endToEnd(outcome));
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
