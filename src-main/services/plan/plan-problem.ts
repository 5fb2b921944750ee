/**
 * A plan request becomes the planning problem: each layer's predicted time on each device, its
 * memory (KV cache, fine-tuning stack or selective recompute), tensor split and experts, the links
 * between the devices, and the memory rules. The builders are core/planner's; this file orders them.
 */
import type { Database } from '../../adapters/store/types.js';
import type { CatalogEntry } from '../../core/catalog/index.js';
import { buildPlanLinks } from '../../core/planner/cost/links.js';
import { parseNetworkStatement } from '../../core/planner/cost/network-statement.js';
import { checkFp8Devices, transferredDtypeWarnings } from '../../core/planner/problem/device-dtypes.js';
import { predictAll } from '../../core/planner/problem/device-predictions.js';
import { withExperts } from '../../core/planner/problem/expert-layers.js';
import { withFinetuneMemory } from '../../core/planner/problem/finetune-layers.js';
import { withKvCache } from '../../core/planner/serving/kv-cache-layers.js';
import { measuredNetworkRules } from '../../core/planner/problem/measured-network.js';
import type { PlanCandidate } from '../../core/planner/search/plan-candidate.js';
import { problemBytesPerParam } from '../../core/planner/problem/plan-precision.js';
import { predictedLayers } from '../../core/planner/problem/predicted-layers.js';
import { withSelectiveRecompute } from '../../core/planner/memory/selective-recompute.js';
import { checkServedContext } from '../../core/planner/serving/served-decoder.js';
import { withTensorSplit } from '../../core/planner/search/tensor-split.js';
import type { PlanLayer, PlanProblem } from '../../core/planner/types.js';
import type { Predictor } from '../../core/predictor/types.js';
import type { FinetuneSpec } from '../../core/workload/finetune.js';
import type { WorkloadPrediction } from '../../core/workload/predict-workload.js';
import type { Workload } from '../../core/workload/types.js';
import type { PlanDevices } from './plan-devices.js';
import type { PlanRequest } from './plan-request.js';
import { workloadPredictor } from '../predict/predictor-service.js';
import { isDecoder, servedDecoderOf } from './serving-plan.js';

const GIB = 2 ** 30;

/** The predicted layers with what they hold in memory: a served decoder's KV cache, a fine-tuning stack's activations, or selective recompute's inputs. */
function withMemory(
  req: PlanRequest,
  workload: Workload,
  entry: CatalogEntry | null,
  layers: PlanLayer[],
  { candidates, predictions }: { candidates: readonly PlanCandidate[]; predictions: readonly WorkloadPrediction[] },
  finetune: FinetuneSpec | null,
  warnings: string[],
): PlanLayer[] {
  if (req.mode === 'inference') {
    const served = servedDecoderOf(req, entry);
    return isDecoder(entry) && served ? withKvCache(workload, entry, served, layers, req.batch, warnings) : layers;
  }
  if (finetune) return withFinetuneMemory(workload, entry, layers, finetune);
  return withSelectiveRecompute(workload, entry, layers, candidates, predictions);
}

/** The links between the plan's devices: probed, measured by nccl-tests, stated (--links), or the network. */
function planLinks(req: PlanRequest, { candidates, machineLinks, assumedNetwork }: PlanDevices, warnings: string[]) {
  const network = req.network ?? assumedNetwork;
  const machinesInPlan = new Set(candidates.map((c) => c.device.machine));
  const rules = [
    ...measuredNetworkRules(req.nccl ?? [], machinesInPlan, warnings),
    ...(req.links ? parseNetworkStatement(req.links.text, req.links.source) : []),
  ];
  const { links, warnings: linkWarnings } = buildPlanLinks(
    candidates.map((c) => c.device),
    { machines: machineLinks, ...(network ? { network } : {}), rules },
  );
  warnings.push(...linkWarnings);
  if (machinesInPlan.size > 1 && !network && rules.length === 0)
    warnings.push('several machines without a stated network');
  return links;
}

/**
 * The planning problem: each layer's predicted time on each device, the links between them, memory
 * rules. `entry`: the planned model's description (null for an ONNX file).
 */
export function planProblem(
  db: Database,
  req: PlanRequest,
  workload: Workload,
  entry: CatalogEntry | null,
  devices: PlanDevices,
  warnings: string[],
  finetune: FinetuneSpec | null = null,
): PlanProblem {
  const { candidates } = devices;
  // Datasheet GPUs carry their own predictor: only measured devices need this machine's trained one.
  let trained: Predictor | null = null;
  const trainedPredictor = (): Predictor => (trained ??= workloadPredictor(db).predictor);
  checkFp8Devices(workload, candidates);
  warnings.push(...transferredDtypeWarnings(workload, candidates));
  const predictions = predictAll(workload, trainedPredictor, candidates, warnings);
  const predicted = predictedLayers(workload, candidates, predictions);
  checkServedContext(workload, entry, req.mode);
  const held = withMemory(req, workload, entry, predicted, { candidates, predictions }, finetune, warnings);
  // No fine-tuning tool splits layers by tensor parallelism (search/plan-ranking.ts says so with pipelines).
  const split = withTensorSplit(workload, entry, held, finetune ? [1] : req.tp, warnings);
  const layers = withExperts(workload, entry, split.layers);
  const { tensorDegrees } = split;
  const links = planLinks(req, devices, warnings);
  return {
    layers,
    devices: candidates.map((c) => c.device),
    links,
    mode: req.mode,
    batch: req.batch,
    bytesPerParam: problemBytesPerParam(req, workload, finetune, warnings),
    ...(req.weights && req.mode === 'inference' ? { weights: req.weights } : {}),
    zeroStage: req.zero ?? 0,
    overheadBytes: GIB / 2,
    ...(tensorDegrees.length > 1 ? { tensorDegrees } : {}),
  };
}
