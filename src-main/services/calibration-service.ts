/**
 * The end of every profile: the calibration models (core/profiler/calibration-models.ts,
 * public architectures, never the models accuracy is reported on) run end to end on the
 * device, on the graph ONNX Runtime executes there, and each executed node's measured time
 * is kept with the run. Predictions then scale each op family by measured / predicted on
 * them (core/workload/calibration.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calibrationModels } from '../core/profiler/calibration-models.js';
import type { CalibrationNode, CalibrationRun } from '../core/workload/calibration.js';
import { mapExecutedNodes, nchwcChannelHints } from '../core/workload/executed-graph.js';
import { importOnnxModel } from '../core/workload/from-onnx.js';
import { parseOnnxModel } from '../core/onnx/onnx-parser.js';
import type { StoppingRule } from '../core/profiler/timing-stats.js';
import type { Database } from '../adapters/store/types.js';
import type { ModelJob, ModelOutcome } from '../adapters/ort/protocol.js';
import type { EpConfig } from '../core/domain/execution-provider.js';
import { executedGraph, type OptimizingRunner } from './executed-graph-service.js';
import { attributeNodes, type AttributionOverhead } from './model-attribution.js';
import { ioBytes } from '../core/workload/predict-workload.js';

export interface CalibratingRunner extends OptimizingRunner {
  runModel(job: Omit<ModelJob, 'id' | 'traceDir'>): Promise<ModelOutcome>;
}

const RULE: StoppingRule = { warmupRuns: 3, minRepetitions: 10, maxRepetitions: 200, targetCi: 0.02, budgetMs: 800 };

/** Runs every calibration model; what could not run is said in the notes and left out. */
export async function calibrateDevice(
  db: Database,
  runner: CalibratingRunner,
  ep: EpConfig,
  overhead: AttributionOverhead | null,
  aborted: () => boolean,
): Promise<{ runs: CalibrationRun[]; notes: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pipedejavu-calibration-'));
  const runs: CalibrationRun[] = [];
  const notes: string[] = [];
  try {
    for (const cm of calibrationModels()) {
      if (aborted()) break;
      const file = path.join(dir, `${cm.name}.onnx`);
      writeFileSync(file, cm.model);
      const executed = await executedGraph(db, runner, file, cm.model, ep);
      if (!executed.ok) {
        notes.push(`calibration model ${cm.name}: ${executed.reason}`);
        continue;
      }
      const source = parseOnnxModel(cm.model);
      const map = mapExecutedNodes(source, executed.model);
      const inputs = Object.fromEntries(cm.inputs.map((i) => [i.name, i.dims]));
      const nchwcChannels = nchwcChannelHints(source, executed.model, map);
      const ranWorkload = importOnnxModel(executed.model, { name: cm.name, inputs, nchwcChannels }).workload;
      const ran = ranWorkload.nodes;
      const outcome = await runner.runModel({
        modelPath: file,
        inputs: cm.inputs,
        ep,
        rule: RULE,
        attributionRuns: 10,
      });
      if (!outcome.ok) {
        notes.push(`calibration model ${cm.name} did not run: ${outcome.error}`);
        continue;
      }
      const attributed = attributeNodes(outcome, ran, overhead, ioBytes(ranWorkload));
      const nodes: CalibrationNode[] = attributed.nodes.flatMap(({ index, measuredUs }) => {
        const n = ran[index];
        if (!n?.kernel || !n.family || !(measuredUs > 0)) return [];
        const { op, shape } = n.kernel;
        return [{ op, family: n.family, shape, dtype: n.dtype, flops: n.flops, bytes: n.bytes, measuredUs }];
      });
      runs.push({ model: cm.name, endToEndUs: attributed.endToEndUs, nodes });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { runs, notes };
}
