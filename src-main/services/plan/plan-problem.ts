/**
 * A resolved plan request (resolve-request.ts) becomes the planning problem: each layer's predicted
 * time on each device, its memory (KV cache, fine-tuning stack or selective recompute), tensor split
 * and experts, the links between the devices, the memory rules, and the GPUs as a served decoder's
 * engine leaves them. The builders are core/planner's; this file orders them.
 */
import type { Database } from '../../adapters/store/types.js';
import { crossMachineAllReduceNote } from '../../core/planner/cost/all-reduce.js';
import { buildPlanLinks } from '../../core/planner/cost/links.js';
import { parseNetworkStatement } from '../../core/planner/cost/network-statement.js';
import { checkFp8Devices, transferredDtypeWarnings } from '../../core/planner/problem/device-dtypes.js';
import { predictAll } from '../../core/planner/problem/device-predictions.js';
import { checkExpertsFit, withExperts } from '../../core/planner/problem/expert-layers.js';
import { withSequence } from '../../core/planner/problem/sequence-layers.js';
import { withVocabParallel } from '../../core/planner/problem/vocab-parallel.js';
import { withFinetuneMemory } from '../../core/planner/problem/finetune-layers.js';
import { withKvCache } from '../../core/planner/serving/kv-cache-layers.js';
import { measuredNetworkRules } from '../../core/planner/problem/measured-network.js';
import type { PlanCandidate } from '../../core/planner/search/plan-candidate.js';
import { problemBytesPerParam } from '../../core/planner/problem/plan-precision.js';
import { predictedLayers } from '../../core/planner/problem/predicted-layers.js';
import { sharedTimes } from '../../core/planner/problem/time-keys.js';
import { withTrainingMemory } from '../../core/planner/memory/selective-recompute.js';
import { checkServedContext } from '../../core/planner/serving/served-decoder.js';
import { withTensorSplit } from '../../core/planner/search/tensor-split.js';
import { withBlockGemms } from '../../core/planner/problem/block-gemms.js';
import { problemTensorOverlap, type OverlapDevice } from '../../core/planner/cost/tensor-overlap.js';
import { datasheetFor } from '../../core/planner/cost/datasheets.js';
import { queuedGatherDevices } from '../../core/planner/cost/sharded-sync.js';
import { gradientSyncOf, NO_STACK_OPTIMIZER_STEP, stackTensorDegrees } from '../../core/planner/stacks/stacks.js';
import type { OptimizerStepRule } from '../../core/planner/stacks/stack-rule.js';
import { memoryEfficiency } from '../../core/predictor/kernel-efficiency.js';
import type { PlanDevice, PlanLayer, PlanProblem } from '../../core/planner/types.js';
import type { Predictor } from '../../core/predictor/types.js';
import type { WorkloadPrediction } from '../../core/workload/predict-workload.js';
import type { PlanDevices } from './plan-devices.js';
import type { PlanRequest } from '../../core/planner/plan-request.js';
import type { PlanAssumptions, ResolvedPlanRequest } from './resolve-request.js';
import { engineUsableBytes, unfusedScoreBytes } from '../../core/engines/engine-memory.js';
import { withHostEmbedding } from '../../core/planner/serving/host-embedding.js';
import type { ServingEngine } from '../../core/planner/serving/plan-serving.js';
import { workloadPredictor } from '../predict/predictor-service.js';
import { isDecoder, servedDecoderOf, type ServingRequest } from './serving-plan.js';

const GIB = 2 ** 30;

/** What the problem reads of a resolved request. */
interface ProblemInput extends Pick<ResolvedPlanRequest, 'workload' | 'model' | 'devices'> {
  request: ServingRequest & Pick<PlanRequest, 'zero' | 'tp'> & LinksRequest;
  assumptions: Pick<PlanAssumptions, 'batch' | 'finetune' | 'engine' | 'stack'>;
}

/** The predicted layers with what they hold in memory: a served decoder's KV cache, a fine-tuning stack's activations, or selective recompute's inputs. */
function withMemory(
  { request: req, workload, model, assumptions }: ProblemInput,
  layers: PlanLayer[],
  { candidates, predictions }: { candidates: readonly PlanCandidate[]; predictions: readonly WorkloadPrediction[] },
  warnings: string[],
): PlanLayer[] {
  if (req.mode === 'inference') {
    const served = servedDecoderOf(req, model);
    return isDecoder(model) && served
      ? withKvCache(workload, model, served, layers, assumptions.batch, warnings)
      : layers;
  }
  if (assumptions.finetune) return withFinetuneMemory(workload, model, layers, assumptions.finetune);
  const selective = assumptions.stack?.selective ?? 'attention-core';
  return withTrainingMemory(workload, model, layers, candidates, predictions, undefined, selective);
}

/** What the links read of a request: the stated network, links and nccl-tests outputs. */
type LinksRequest = Pick<PlanRequest, 'network' | 'links' | 'nccl'>;

/** The links between the plan's devices: probed, measured by nccl-tests, stated (--links), or the network. */
function planLinks(req: LinksRequest, { candidates, machineLinks, assumedNetwork }: PlanDevices, warnings: string[]) {
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
  const collectives = crossMachineAllReduceNote(links);
  if (collectives) warnings.push(collectives);
  if (machinesInPlan.size > 1 && !network && rules.length === 0)
    warnings.push('several machines without a stated network');
  return links;
}

/**
 * What a GPU offers the engine: a datasheet GPU its whole memory, the engine's reserve standing for
 * the CUDA context the planner otherwise keeps back (datasheets.ts), as the engine's own figures
 * (engine-memory.ts) and `fit` (fit-service.ts, enginePlacement) count it; a profiled GPU its free memory.
 */
function engineBaseBytes(d: PlanDevice): number {
  const ds = d.estimate === 'datasheet' ? datasheetFor(d.name) : null;
  return ds ? ds.memory.sizeGiB * GIB : d.memoryBytes;
}

/**
 * A served decoder's GPUs as its engine leaves them: its share of each, less its reserve and
 * activations, and the attention scores of a context of `contextTokens` where it holds them
 * (llama.cpp without -fa: engine-memory.ts unfusedScoreBytes, on every GPU, each computing its
 * layers' attention). Its layers as the engine places them: an engine that keeps the input
 * embedding on the host holds none of it on a GPU (serving/host-embedding.ts).
 */
function withEngineMemory(problem: PlanProblem, engine: ServingEngine, contextTokens: number): PlanProblem {
  const hidden = engine.entry.hidden;
  const onHost = engine.rules.memory.inputEmbedding === 'host';
  const scores = unfusedScoreBytes(engine.rules, engine.entry.heads, contextTokens);
  const usable = (d: PlanDevice) => Math.max(0, engineUsableBytes(engine.rules, engineBaseBytes(d), hidden) - scores);
  return {
    ...problem,
    layers: onHost ? withHostEmbedding(engine.entry, problem.layers) : problem.layers,
    devices: problem.devices.map((d) => (d.kind === 'gpu' ? { ...d, memoryBytes: usable(d) } : d)),
  };
}

/**
 * The planning problem: each layer's predicted time on each device, the links between them, memory
 * rules; a served decoder's GPUs as its engine leaves them. Refused when no device holds one block
 * with its experts.
 */
export function planProblem(db: Database, input: ProblemInput, warnings: string[]): PlanProblem {
  const { request: req, workload, model, devices, assumptions } = input;
  const { candidates } = devices;
  const { finetune } = assumptions;
  // Datasheet GPUs carry their own predictor: only measured devices need this machine's trained one.
  let trained: Predictor | null = null;
  const trainedPredictor = (): Predictor => (trained ??= workloadPredictor(db).predictor);
  checkFp8Devices(workload, candidates);
  warnings.push(...transferredDtypeWarnings(workload, candidates));
  const predictions = predictAll(workload, trainedPredictor, candidates, warnings);
  // Devices sharing a prediction share one key in the layers' times (a cluster's GPUs of one kind: one).
  const { timesOf, ...keyed } = sharedTimes(candidates, predictions);
  const predicted = predictedLayers(workload, keyed.candidates, keyed.predictions);
  checkServedContext(workload, model, req.mode);
  const held = withMemory(input, predicted, keyed, warnings);
  // No fine-tuning tool splits layers by tensor parallelism (search/plan-ranking.ts says so with pipelines).
  const { stack } = assumptions;
  const training = req.mode === 'training' && !finetune;
  const degrees = finetune ? [1] : stack ? stackTensorDegrees(stack, req.tp) : req.tp;
  const tensor = withTensorSplit(workload, model, held, degrees, warnings);
  // A stack that overlaps the collectives with the GEMMs prices them from each GEMM's share (stacks/*: tensorOverlap).
  const overlap = training && stack ? problemTensorOverlap(stack, overlapDevices(candidates)) : undefined;
  const queued = req.mode === 'training' && stack ? queuedGatherDevices(stack, overlapDevices(candidates)) : undefined;
  // Without a stack, the step its export runs (stacks.ts NO_STACK_OPTIMIZER_STEP).
  const fp16 = workload.nodes.find((n) => n.flops > 0)?.dtype === 'fp16';
  const stepRule = stack?.optimizerStep ?? NO_STACK_OPTIMIZER_STEP;
  const optimizerStep = training ? gpuOptimizerStep(stepRule, candidates, fp16) : undefined;
  const split = overlap ? { ...tensor, layers: withBlockGemms(workload, tensor.layers) } : tensor;
  // The stacks that split blocks split the embedding and LM head by vocabulary (stacks/*: vocabParallel).
  const byVocab = training && (!stack || stack.vocabParallel !== null);
  const vocab = byVocab ? withVocabParallel(model, split.layers) : split.layers;
  const { layers, sequence } = withSequence(workload, model, withExperts(workload, model, vocab));
  const { tensorDegrees } = split;
  const links = planLinks(req, devices, warnings);
  const planned: PlanProblem = {
    layers,
    devices: candidates.map((c) => c.device),
    links,
    ...(timesOf ? { timesOf } : {}),
    mode: req.mode,
    batch: assumptions.batch,
    bytesPerParam: problemBytesPerParam(req, workload, finetune, warnings),
    ...(req.weights && req.mode === 'inference' ? { weights: req.weights } : {}),
    zeroStage: req.zero ?? 0,
    overheadBytes: GIB / 2,
    ...(tensorDegrees.length > 1 ? { tensorDegrees } : {}),
    ...(sequence !== null ? { sequence } : {}),
    ...(stack ? { gradientSync: gradientSyncOf(stack) } : {}),
    ...(overlap ? { tensorOverlap: overlap } : {}),
    ...(queued ? { queuedGathers: queued } : {}),
    ...(optimizerStep ? { optimizerStep } : {}),
  };
  const engine = assumptions.engine?.serving;
  // The engine's context: every sequence's prompt and output (one cache, as llama.cpp's -c).
  const served = engine ? servedDecoderOf(req, model) : null;
  const context = served ? (served.prompt + served.tokens) * assumptions.batch : 0;
  const problem = engine ? withEngineMemory(planned, engine, context) : planned;
  checkExpertsFit(workload, problem);
  return problem;
}

/**
 * The optimizer step on the GPUs (cost/optimizer-step.ts): its bytes a parameter, its gradient passes (the
 * fp16 one in fp16), and each GPU's datasheet bandwidth at its memory type's achieved fraction; undefined
 * when no candidate has a datasheet.
 */
function gpuOptimizerStep(
  rule: OptimizerStepRule,
  candidates: readonly PlanCandidate[],
  fp16: boolean,
): PlanProblem['optimizerStep'] {
  const deviceGBps: Record<string, number> = {};
  for (const c of candidates) {
    const ds = c.device.kind === 'gpu' ? datasheetFor(c.device.name) : null;
    if (ds) deviceGBps[c.device.id] = ds.memory.bandwidthGBps * memoryEfficiency(ds.memory.type);
  }
  return Object.keys(deviceGBps).length > 0
    ? {
        bytesPerParam: rule.bytesPerParam,
        deviceGBps,
        ...(rule.gradientPass
          ? { gradientPass: { split: rule.gradientPass.split, unsplit: fp16 ? rule.gradientPass.fp16 : 0 } }
          : {}),
      }
    : undefined;
}

/** Each candidate's compute capability and SM count (its datasheet's, the probe's SM count first). */
function overlapDevices(candidates: readonly PlanCandidate[]): OverlapDevice[] {
  return candidates.map((c) => {
    const ds = c.device.kind === 'gpu' ? datasheetFor(c.device.name) : null;
    return {
      id: c.device.id,
      computeCapability: ds?.computeCapability ?? null,
      smCount: c.features.smCount ?? ds?.smCount ?? null,
    };
  });
}
