/**
 * All placements of a workload on the user's devices, ranked. Pure.
 *
 * Spaces searched (each exactly, on the cost of cost/plan-cost.ts):
 * - single: each device alone, best microbatch count;
 * - data-parallel: every set of two or more devices (fastest-first prefixes past 12 devices),
 *   each microbatch split in proportion to device speed;
 * - pipeline: every ordered sequence of distinct devices with contiguous layer ranges
 *   (search/pipeline-search.ts), for every microbatch count;
 * - hybrid: pipelines whose stages are data-parallel groups of like devices (same name and memory,
 *   group-space.ts), when some device has a twin; with split layers (PlanLayer.tensor), each group
 *   also runs tensor parallel at every allowed degree that divides it (Alpa's structure: the
 *   inter-operator DP chooses each stage's group and its intra-operator degree);
 * - mixed: the same over the GPUs of each machine whatever their kind (tensor and data parallel
 *   groups of unlike GPUs), when some machine has unlike GPUs and the layers split.
 * - cluster: with GPUs on two or more machines, identical replicas of whole machines (or of parts
 *   of one), each planned exactly over whole machines and spread over all (search/cluster-search.ts):
 *   what remains searchable when the spaces above have too many states.
 * - uniform: on like nodes (N machines of g identical GPUs), every stage on as many GPUs, tp x pp x
 *   dp x microbatches, each candidate's split exact (search/uniform-search.ts); past
 *   MAX_UNEVEN_CLUSTER_MACHINES like nodes it is the only multi-GPU search (one GPU stands for the
 *   single-device plans), and a rejection line says that unequal stages were not searched.
 * With `singleStage` (ZeRO-2/3, which DeepSpeed does not run under pipeline parallelism) only
 * one-stage plans are searched: each device, data-parallel and tensor-parallel groups of like
 * devices (whole-model.ts likeGroupPlans), one tensor-parallel group of all the devices when they
 * are of several kinds (mixedGroupPlans), and all devices data parallel.
 */
import { UserError } from '../../errors.js';
import type { CostModel } from '../cost/cost-model.js';
import { checkHostMemory } from '../memory/host-memory.js';
import { planSignature } from '../cost/plan-cost.js';
import {
  hybridSpace,
  memoryClassKey,
  mixedSpace,
  pipelineSpace,
  tensorDegreesOf,
  type GroupSpace,
} from './group-space.js';
import { pipelineSearch } from './pipeline-search.js';
import { clusterSearch } from './cluster-search.js';
import { nodeIndexOf, onNodes, uniformNodes, uniformSearch } from './uniform-search.js';

/**
 * Like nodes past which the cluster search (stages of unequal machine counts) gives way to the
 * uniform search alone (equal stages): its states grow with the machines (8 nodes: seconds).
 */
const MAX_UNEVEN_CLUSTER_MACHINES = 4;
import { microbatchCandidates, plannerContext, type PlannerContext } from '../problem/problem.js';
import {
  bestOverMicrobatches,
  dataParallelPlans,
  likeGroupPlans,
  mixedGroupPlans,
  rank,
  singleDevicePlans,
} from './whole-model.js';
import type { Plan, PlanDevice, PlanProblem, Schedule } from '../types.js';

export interface PlanAllOptions {
  /** Plans returned (default 10). */
  topN?: number;
  schedule?: Schedule;
  /** Microbatch counts to try; default: divisors of the batch up to maxMicrobatches. */
  microbatches?: readonly number[];
  maxMicrobatches?: number;
  /** Search pipelines of data-parallel groups (default true). */
  hybrid?: boolean;
  /** Which devices may form a data-parallel group inside a pipeline (default: same name and memory). */
  classKey?: (d: PlanDevice) => string;
  /** DP table limit (states) per space (default 4e6). */
  maxDpStates?: number;
  /** The cluster search looks only for plans faster than this (a plan this fast is already known). */
  clusterBound?: number;
  /** Clock for searchMs (ms); default performance.now. */
  now?: () => number;
  /** Only one-stage plans (no pipeline): single, data parallel and tensor-parallel groups (default false). */
  singleStage?: boolean;
}

export interface RejectedPlan {
  kind: Plan['kind'];
  reason: string;
  /** How many plans the rejection stands for, when several (every offloaded plan a host cannot hold). */
  plans?: number;
}

export interface PlanAllResult {
  /** Feasible plans by step time, then plans that do not fit (with reasons); at most topN. */
  plans: Plan[];
  rejected: RejectedPlan[];
  searchMs: number;
}

/** Some machine's GPUs fall into several memory classes (so the mixed space adds groups). */
function mixesUnlikeGpus(mixed: GroupSpace, hybrid: GroupSpace): boolean {
  const classOf = new Map<number, number>();
  hybrid.classes.forEach((c, i) => c.devices.forEach((d) => classOf.set(d, i)));
  return mixed.classes.some((c) => c.devices.length > 1 && new Set(c.devices.map((d) => classOf.get(d))).size > 1);
}

export function planAll(problem: PlanProblem, costModel?: CostModel, opts: PlanAllOptions = {}): PlanAllResult {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const ctx = plannerContext(problem, costModel);
  const schedule = opts.schedule ?? '1f1b';
  const microbatches = (opts.microbatches ?? microbatchCandidates(problem.batch, opts.maxMicrobatches ?? 64)).filter(
    (m) => Number.isInteger(m) && m >= 1 && problem.batch % m === 0,
  );
  if (microbatches.length === 0) {
    throw new UserError(`no microbatch count divides the batch of ${problem.batch}: give counts that divide it`);
  }
  const L = problem.layers.length;
  const D = problem.devices.length;
  const rejected: RejectedPlan[] = [];
  const found: Plan[] = [];

  const nodes = D >= 2 && (opts.hybrid ?? true) ? uniformNodes(ctx) : null;
  const machines = nodes ? D / nodes.perNode : 0;
  if (nodes && machines > MAX_UNEVEN_CLUSTER_MACHINES) {
    // Like nodes at scale: one GPU stands for all alone, and the uniform search for the rest.
    const single = bestOverMicrobatches(
      ctx,
      [{ from: 0, to: L, devices: [problem.devices[0]?.id as string] }],
      microbatches,
      schedule,
    );
    found.push(single);
    if (!single.feasible)
      rejected.push({ kind: 'single', reason: `each of the ${D} GPUs alone: ${single.reasons.join('; ')}` });
    const u = uniformSearch(ctx, { schedule, microbatches, bound: opts.clusterBound, singleStage: opts.singleStage });
    found.push(...u.plans);
    if (opts.singleStage !== true && L >= 2)
      rejected.push({
        kind: 'hybrid',
        reason: `pipelines of unequal stages not searched on ${machines} like nodes (more than ${MAX_UNEVEN_CLUSTER_MACHINES}): every stage on as many GPUs (tp x pp x dp) was`,
      });
  } else {
    let clusterBound = opts.clusterBound ?? Infinity;
    if (nodes) {
      const u = uniformSearch(ctx, { schedule, microbatches, bound: opts.clusterBound, singleStage: opts.singleStage });
      found.push(...u.plans);
      for (const p of u.plans) if (p.feasible) clusterBound = Math.min(clusterBound, p.stepUs);
    }
    exactSpaces(ctx, { schedule, microbatches, opts, clusterBound }, found, rejected);
  }
  for (const e of ctx.tables.costErrors) rejected.push({ kind: 'pipeline', reason: e });

  // Like nodes: GPUs of one node are interchangeable, so a plan is listed once whichever of them it names.
  const nodeOf = nodes ? nodeIndexOf(problem.devices, nodes) : null;
  const seen = new Set<string>();
  const unique = found.filter((p) => {
    const k = nodeOf ? planSignature(onNodes(p, nodeOf)) : planSignature(p);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // An offload also needs its host's RAM: plans whose host cannot hold it do not fit.
  const host = checkHostMemory(problem, unique);
  rejected.push(...host.rejected);
  return { plans: rank(host.plans).slice(0, opts.topN ?? 10), rejected, searchMs: now() - started };
}

/** The exact spaces and the cluster search (every device set, the DPs over group spaces, replicas of machines). */
function exactSpaces(
  ctx: PlannerContext,
  args: { schedule: Schedule; microbatches: number[]; opts: PlanAllOptions; clusterBound: number },
  found: Plan[],
  rejected: RejectedPlan[],
): void {
  const { problem } = ctx;
  const { schedule, microbatches, opts, clusterBound } = args;
  const L = problem.layers.length;
  const D = problem.devices.length;
  const singles = singleDevicePlans(ctx, { schedule, microbatches });
  found.push(...singles);
  for (const p of singles) if (!p.feasible) rejected.push({ kind: 'single', reason: p.reasons.join('; ') });

  if (D >= 2 && opts.singleStage === true) {
    found.push(...likeGroupPlans(ctx, { schedule, microbatches }), ...mixedGroupPlans(ctx, { schedule, microbatches }));
    found.push(
      bestOverMicrobatches(
        ctx,
        [{ from: 0, to: L, devices: problem.devices.map((d) => d.id) }],
        microbatches,
        schedule,
      ),
    );
  } else if (D >= 2) {
    const dp = dataParallelPlans(ctx, { schedule, microbatches });
    found.push(...dp.plans);
    const bad = dp.plans.filter((p) => !p.feasible);
    if (bad.length > 0) {
      const example = bad[bad.length - 1] as Plan;
      rejected.push({
        kind: 'data-parallel',
        reason: `${bad.length} of ${dp.plans.length} device sets do not fit, e.g. ${example.stages[0]?.devices.join('+')}: ${example.reasons.join('; ')}`,
      });
    }
    if (!dp.exhaustive) {
      rejected.push({ kind: 'data-parallel', reason: `only the fastest-first device sets were tried (${D} devices)` });
    }
  }

  if (L >= 2 && D >= 2 && opts.singleStage !== true) {
    const spaces: { kind: 'pipeline' | 'hybrid'; space: GroupSpace }[] = [
      { kind: 'pipeline', space: pipelineSpace(problem) },
    ];
    const hybrid = hybridSpace(problem, opts.classKey ?? memoryClassKey);
    if ((opts.hybrid ?? true) && hybrid.classes.some((c) => c.devices.length > 1)) {
      spaces.push({ kind: 'hybrid', space: hybrid });
    }
    const mixed = mixedSpace(problem);
    if ((opts.hybrid ?? true) && tensorDegreesOf(problem).length > 1 && mixesUnlikeGpus(mixed, hybrid)) {
      spaces.push({ kind: 'hybrid', space: mixed });
    }
    for (const { kind, space } of spaces) {
      const r = pipelineSearch(ctx, { schedule, microbatches, space, maxStates: opts.maxDpStates });
      if (r.skipped) rejected.push({ kind, reason: r.skipped });
      else if (!r.best) rejected.push({ kind, reason: `no split of the ${L} layers over the devices fits in memory` });
      for (const m of r.byMicrobatches) if (m.plan) found.push(m.plan);
    }
  }
  if (L >= 2 && (opts.hybrid ?? true) && opts.singleStage !== true) {
    const c = clusterSearch(ctx, { schedule, microbatches, maxStates: opts.maxDpStates, bound: clusterBound });
    found.push(...c.plans);
    if (c.replicaShapes > 0 && c.plans.length === 0)
      rejected.push({ kind: 'hybrid', reason: 'no replicated pipeline over whole machines fits in memory' });
  }
}
