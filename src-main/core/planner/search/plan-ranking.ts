/**
 * The plans of one request, ranked. Optimizer offload (training: fp32 master weights and
 * Adam state in host memory, the Adam step on the CPU) is searched as the request says:
 * 'auto' searches with and without it and ranks both kinds of plan together. The links an
 * offload leans on are set here; its host memory is checked with every plan (memory/host-memory.ts).
 * Sharded data parallelism is searched the same way: 'auto' (training on two or more GPUs) tries
 * ZeRO-1 (it moves what DDP moves and holds less, so it stands for ZeRO-0), ZeRO-2 and ZeRO-3;
 * DeepSpeed runs ZeRO-2/3 without pipeline parallelism, so those are searched on one stage only.
 */
import type { CostModel } from '../cost/cost-model.js';
import type { MachineLinks } from '../cost/links.js';
import { planSignature } from '../cost/plan-cost.js';
import { planAll, type PlanAllResult } from './index.js';
import type { HostMemory, Mode, OptimizerOffload, Plan, PlanDevice, PlanProblem, Recompute } from '../types.js';
import { RECOMPUTE_OPTIONS, recomputeProblem } from '../memory/recompute.js';

/** A GPU's host link when the probe gave none (GB/s, one direction). */
const DEFAULT_HOST_GBPS = 12;
/** The CPU's memory bandwidth when no profiled CPU is in the plan (GB/s). */
const DEFAULT_CPU_GBPS = 10;

export type OffloadRequest = 'no' | 'yes' | 'auto';

/** Offloading moves optimizer state from GPUs to host memory: only when training, and only with a GPU. */
export function offloadPolicy(
  mode: Mode,
  devices: readonly PlanDevice[],
  requested: OffloadRequest = 'auto',
): OffloadRequest {
  return mode === 'training' && devices.some((d) => d.kind === 'gpu') ? requested : 'no';
}

/** Host RAM assumed for a machine nobody probed (datasheet GPUs alone), per byte of its GPUs' memory. */
export const ASSUMED_HOST_MEMORY_PER_GPU_BYTE = 2;

/**
 * The RAM of a machine nobody probed, as assumed: twice its GPUs' memory (a common server
 * sizing; DGX H100: 2 TiB for 640 GB of GPU memory).
 */
export function assumedHostMemory(devices: readonly PlanDevice[], machine: string): HostMemory {
  const gpuBytes = devices
    .filter((d) => d.machine === machine && d.kind === 'gpu')
    .reduce((s, d) => s + d.memoryBytes, 0);
  return { bytes: ASSUMED_HOST_MEMORY_PER_GPU_BYTE * gpuBytes, source: 'assumed' };
}

/**
 * The offload's links: each GPU's probed host link (PCIE_HOST), and the CPU's measured
 * memory bandwidth (`cpuGBps`; null: assumed, with a warning).
 */
export function offloadSettings(
  devices: readonly PlanDevice[],
  machines: readonly MachineLinks[],
  cpuGBps: number | null,
  warnings: string[],
  hostMemory?: Record<string, HostMemory>,
): OptimizerOffload {
  const hostGBps: Record<string, number> = {};
  for (const d of devices) {
    if (d.kind !== 'gpu') continue;
    const key = d.id.slice(d.id.lastIndexOf('/') + 1);
    const links = machines.find((m) => m.machine === d.machine)?.links ?? [];
    const host = links.find((l) => l.kind === 'PCIE_HOST' && (l.a === key || l.b === key));
    if (host?.bandwidthGBps) hostGBps[d.id] = host.bandwidthGBps;
  }
  if (cpuGBps === null)
    warnings.push(
      `optimizer offload assumes ${DEFAULT_CPU_GBPS} GB/s of CPU memory bandwidth (no profiled CPU in the plan)`,
    );
  return {
    hostGBps,
    defaultHostGBps: DEFAULT_HOST_GBPS,
    cpuGBps: cpuGBps ?? DEFAULT_CPU_GBPS,
    ...(hostMemory ? { hostMemory } : {}),
  };
}

/** A plan with the problem it was searched on (with or without offload). */
export interface RankedPlan {
  plan: Plan;
  problem: PlanProblem;
}

export interface RankedPlans {
  /** The first topN plans, every rejection (offloaded ones say so) and the total search time. */
  result: PlanAllResult;
  /** result.plans, each with its problem. */
  listed: RankedPlan[];
  /** The fastest plan that fits, or null. */
  best: RankedPlan | null;
}

/**
 * The plans of several searches ranked together: plans that fit first, by step time;
 * plans found with optimizer offload are marked so.
 */
export function rankPlans(runs: readonly { problem: PlanProblem; result: PlanAllResult }[], topN: number): RankedPlans {
  const all: RankedPlan[] = runs.flatMap((r) =>
    r.result.plans.map((plan) => ({
      plan: {
        ...plan,
        ...(r.problem.optimizerOffload ? { optimizerOffload: true } : {}),
        ...(r.problem.recompute ? { recompute: r.problem.recompute } : {}),
        ...(r.problem.mode === 'training' ? { zeroStage: planZeroStage(plan, r.problem) } : {}),
      },
      problem: r.problem,
    })),
  );
  all.sort((a, b) => Number(b.plan.feasible) - Number(a.plan.feasible) || a.plan.stepUs - b.plan.stepUs);
  // A plan without replicas is the same plan at every ZeRO stage: listed once.
  const seen = new Set<string>();
  const ranked = all.filter((t) => {
    const key = `${planSignature(t.plan)}/${t.plan.optimizerOffload ? 'offload' : ''}/${t.plan.recompute ?? ''}/${t.plan.zeroStage ?? 0}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const listed = ranked.slice(0, topN);
  const result: PlanAllResult = {
    plans: listed.map((t) => t.plan),
    rejected: runs.flatMap((r) =>
      // One device holds everything at any ZeRO stage: its rejections do not name one.
      r.result.rejected.map((x) => ({
        ...x,
        reason: `${variantText(r.problem, x.kind !== 'single' || (x.plans ?? 1) > 1)}${x.reason}`,
      })),
    ),
    searchMs: runs.reduce((sum, r) => sum + r.result.searchMs, 0),
  };
  return { result, listed, best: ranked.find((t) => t.plan.feasible) ?? null };
}

/**
 * The ZeRO stage a plan runs: its problem's when some stage has data-parallel replicas to shard
 * over, else 0 (one replica holds everything whatever the stage).
 */
export function planZeroStage(plan: Pick<Plan, 'stages'>, problem: Pick<PlanProblem, 'zeroStage'>): 0 | 1 | 2 | 3 {
  const replicated = plan.stages.some((s) => s.devices.length / (s.tp ?? 1) >= 2);
  return replicated ? problem.zeroStage : 0;
}

/** "with optimizer offload, full recomputation, ZeRO-1: ", or '' for the plain problem. */
function variantText(p: PlanProblem, zero = true): string {
  const parts = [
    ...(p.optimizerOffload ? ['optimizer offload'] : []),
    ...(p.recompute ? [`${p.recompute} recomputation`] : []),
    ...(zero && p.zeroStage > 0 ? [`ZeRO-${p.zeroStage}`] : []),
  ];
  return parts.length ? `with ${parts.join(', ')}: ` : '';
}

/**
 * Which activation recomputation to search: 'auto' (training) tries none, selective and full; a
 * list (a stack's) tries none and those.
 */
export type RecomputeRequest = 'auto' | 'none' | Recompute | readonly Recompute[];

/** The problems of every recomputation the request names (the plain one first). */
function recomputeVariants(problem: PlanProblem, request: RecomputeRequest): PlanProblem[] {
  if (problem.mode !== 'training' || request === 'none') return [problem];
  const several = typeof request !== 'string' || request === 'auto';
  const kinds = request === 'auto' ? RECOMPUTE_OPTIONS : typeof request === 'string' ? [request] : request;
  const variants = kinds.flatMap((k) => recomputeProblem(problem, k) ?? []);
  return several ? [problem, ...variants] : variants;
}

/** Which ZeRO stages to search: 'auto' (training on two or more GPUs: 1, 2 and 3), one stage, or a stack's. */
export type ZeroRequest = 'auto' | 0 | 1 | 2 | 3 | readonly (0 | 1 | 2 | 3)[];

/** ZeRO stages DeepSpeed runs together with pipeline parallelism. */
const PIPELINE_ZERO_STAGES: readonly number[] = [0, 1];

/**
 * The problems of every ZeRO stage the request names. 'auto' tries 1, 2 and 3 (an offloaded
 * optimizer: 1), and keeps the problem's own stage when there is nothing to shard over (inference,
 * fewer than two GPUs).
 */
function zeroVariants(problem: PlanProblem, request: ZeroRequest): PlanProblem[] {
  if (typeof request === 'number') return [{ ...problem, zeroStage: request }];
  const gpus = problem.devices.filter((d) => d.kind === 'gpu').length;
  if (problem.mode !== 'training' || gpus < 2) return [problem];
  // An offloaded optimizer is sharded from stage 1 on (DeepSpeed, Megatron's distributed optimizer).
  const offloaded = (z: number) => !problem.optimizerOffload || z === 1;
  const listed = request === 'auto' ? ([1, 2, 3] as const) : request;
  const stages = listed.filter(offloaded);
  return stages.map((zeroStage) => ({ ...problem, zeroStage }));
}

/**
 * Searches the problem without optimizer offload unless `offload` is 'yes', and with it
 * (`settings`) unless 'no', each with the recomputations `recompute` names (default: none) and
 * the ZeRO stages `zero` names (default: the problem's), and ranks all the plans together.
 */
export function searchRanked(
  problem: PlanProblem,
  costModel: CostModel,
  opts: {
    topN: number;
    offload: OffloadRequest;
    settings: OptimizerOffload | null;
    recompute?: RecomputeRequest;
    zero?: ZeroRequest;
    /** ZeRO stages pipelines are searched at (default: DeepSpeed's, 0 and 1; a stack's). */
    pipelineZeroStages?: readonly number[];
  },
): RankedPlans {
  const pipelined = (p: PlanProblem) => pipelines(p, opts.pipelineZeroStages ?? PIPELINE_ZERO_STAGES);
  const offloaded: PlanProblem = opts.settings ? { ...problem, optimizerOffload: opts.settings } : problem;
  const problems = [...(opts.offload !== 'yes' ? [problem] : []), ...(opts.offload !== 'no' ? [offloaded] : [])]
    .flatMap((p) => (opts.zero === undefined ? [p] : zeroVariants(p, opts.zero)))
    .flatMap((p) => recomputeVariants(p, opts.recompute ?? 'none'))
    // Pipeline searches first: their plans bound the cluster searches of the later ones.
    .sort((a, b) => Number(pipelined(b)) - Number(pipelined(a)));
  // The best step so far bounds the cluster searches of the later variants (their costliest part).
  let bound = Infinity;
  const runs = problems.map((p) => {
    const result = planAll(p, costModel, { topN: opts.topN, clusterBound: bound, singleStage: !pipelined(p) });
    for (const plan of result.plans) if (plan.feasible) bound = Math.min(bound, plan.stepUs);
    return { problem: p, result };
  });
  const ranked = rankPlans(runs, opts.topN);
  const fixed = typeof opts.zero === 'number' ? opts.zero : null;
  if (finetuned(problem))
    ranked.result.rejected.push({
      kind: 'pipeline',
      reason:
        'not searched when fine-tuning, nor tensor parallelism: PEFT with the Trainer, torchtune, Unsloth and axolotl do neither (FSDP, ZeRO-3, splits the frozen base over the GPUs instead)',
    });
  else if (fixed !== null && !pipelined({ ...problem, zeroStage: fixed }))
    ranked.result.rejected.push({
      kind: 'pipeline',
      reason: `ZeRO-${fixed}: pipelines not searched (${pipelineZeroText(opts.pipelineZeroStages)}; --zero 1 or auto searches them)`,
    });
  return ranked;
}

/** Why a ZeRO stage runs no pipelines: the stack's stages with pipelines, or without a stack DeepSpeed's and Megatron-LM's. */
function pipelineZeroText(stackStages: readonly number[] | undefined): string {
  if (!stackStages)
    return 'DeepSpeed and Megatron-LM run ZeRO stages 2 and 3 without pipeline parallelism; --stack torchtitan pipelines FSDP';
  if (stackStages.length === 0) return 'the stack runs no pipelines';
  return `the stack runs pipelines at ZeRO ${stackStages.join(', ')} only`;
}

/**
 * Whether a problem's plans may be pipelines: training at a ZeRO stage DeepSpeed pipelines (0 or
 * 1), or inference; never fine-tuning with adapters, which no fine-tuning tool pipelines.
 */
function pipelines(p: PlanProblem, zeroStages: readonly number[]): boolean {
  if (finetuned(p)) return false;
  return p.mode !== 'training' || zeroStages.includes(p.zeroStage);
}

/** Fine-tuning with adapters: layers hold frozen weights. */
function finetuned(p: PlanProblem): boolean {
  return p.layers.some((l) => l.frozenBytes !== undefined);
}
