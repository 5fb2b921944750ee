/**
 * Plans for clusters: many machines of a few kinds (a lab, a Slurm partition), where the exact
 * spaces (group-space.ts) have far too many states (two kinds of 256 GPUs: ~1e10). Pure.
 *
 * The cluster space, searched by decomposition (the structure Megatron-LM and Alpa use at scale):
 * - Machines with the same GPUs (names and memory, in order) form a node class; CPUs are left out.
 * - The machines are cut into R identical replicas: each takes q_c machines of class c (the
 *   remaining machines idle), or one machine's GPUs are cut into parts of q GPUs (R = machines ×
 *   GPUs / q) when a replica is smaller than a machine.
 * - One replica, with the batch divided by R, is planned exactly by the suffix DP over whole
 *   machines (class unit = the machine's GPUs): a pipeline of stages on k machines each, tensor
 *   parallel inside a machine (tp ≤ its GPUs), data parallel over the rest; a replica inside one
 *   machine uses the hybrid space over its GPUs.
 * - Each stage then runs on the union of the R replicas' copies of its devices (data parallel over
 *   all of them), and every microbatch count's best is priced on the whole problem: gradient
 *   sync over every replica and the network between them are in the price the plans are ranked on.
 * What it cannot find: stages whose machines are not a multiple of the replica (uneven splits
 *   across replicas), and plans the inner DP ranks low because it saw the sync of one replica only.
 *   search.ts runs the exact spaces as well when they are small enough, so on small clusters the
 *   best plan is the exact one.
 */
import { pricePlan, type StageSpec } from '../cost/plan-cost.js';
import { linksAmongDevices } from '../cost/collectives.js';
import type { PlannerContext } from '../problem/problem.js';
import { CostTables } from '../cost/stage-cost.js';
import type { Plan, PlanLink, PlanProblem, Schedule } from '../types.js';
import { hybridSpace, memoryClassKey, type DeviceClass, type GroupSpace } from './group-space.js';
import { pipelineSearch, spaceStateCount } from './pipeline-search.js';

export interface ClusterSearchOptions {
  schedule: Schedule;
  microbatches: readonly number[];
  /** DP states allowed for one replica's search (default 4e6). */
  maxStates?: number;
  /** Only plans faster than this are sought (default Infinity). */
  bound?: number | undefined;
}

export interface ClusterSearchResult {
  /** The best plan of each replica shape and microbatch count, priced on the whole problem. */
  plans: Plan[];
  /** Replica shapes searched. */
  replicaShapes: number;
  /** Why shapes were left out (too many states), one line each. */
  skipped: string[];
}

interface NodeClass {
  key: string;
  /** Each machine's GPU indices into problem.devices, in device order. */
  machines: number[][];
}

/** Machines with the same GPUs (name and memory, in order): one class, machines in label order. */
export function nodeClasses(problem: Pick<PlanProblem, 'devices'>): NodeClass[] {
  const byMachine = new Map<string, number[]>();
  problem.devices.forEach((d, i) => {
    if (d.kind !== 'gpu') return;
    const list = byMachine.get(d.machine) ?? [];
    list.push(i);
    byMachine.set(d.machine, list);
  });
  const byKey = new Map<string, NodeClass>();
  const labels = [...byMachine.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const label of labels) {
    const gpus = byMachine.get(label) as number[];
    const key = gpus.map((i) => memoryClassKey(problem.devices[i] as PlanProblem['devices'][number])).join('\u0001');
    const c = byKey.get(key) ?? { key, machines: [] };
    c.machines.push(gpus);
    byKey.set(key, c);
  }
  return [...byKey.values()];
}

/** One way to cut the cluster into R identical replicas. */
interface ReplicaShape {
  replicas: number;
  /** Each replica's devices, in the same order for every replica (stage device lists map by position). */
  devices: number[][];
  /** The space one replica is searched in (device indices of replica 0, re-indexed by the sub-problem). */
  space: (sub: PlanProblem) => GroupSpace;
  label: string;
}

/** Replicas of whole machines: q_c machines of each class c per replica, R = min over c of floor(n_c / q_c). */
function machineReplicaShapes(classes: readonly NodeClass[]): ReplicaShape[] {
  const shapes: ReplicaShape[] = [];
  const seen = new Set<string>();
  const most = Math.max(...classes.map((c) => c.machines.length));
  for (let R = 1; R <= most; R++) {
    const q = classes.map((c) => Math.floor(c.machines.length / R));
    if (q.every((x) => x === 0)) continue;
    const key = q.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const replicas = Math.min(
      ...classes.flatMap((c, i) => ((q[i] as number) > 0 ? [Math.floor(c.machines.length / (q[i] as number))] : [])),
    );
    const devices = Array.from({ length: replicas }, (_, r) =>
      classes.flatMap((c, i) => c.machines.slice(r * (q[i] as number), (r + 1) * (q[i] as number)).flat()),
    );
    const units = classes.map((c) => (c.machines[0] as number[]).length);
    shapes.push({
      replicas,
      devices,
      label: `${replicas} replicas of ${q.map((n, i) => `${n}x${units[i]}`).join('+')} GPUs`,
      space: () => {
        let at = 0;
        const out: DeviceClass[] = [];
        classes.forEach((c, i) => {
          const n = (q[i] as number) * (units[i] as number);
          if (n > 0) {
            const ids = Array.from({ length: n }, (_, j) => at + j);
            out.push({ key: c.key, devices: ids, maxGroupSize: q[i] as number, unit: units[i] as number });
          }
          at += n;
        });
        return { name: 'cluster', classes: out };
      },
    });
  }
  return shapes;
}

/** Replicas inside machines: every machine of one class cut into parts of q GPUs (q < its GPUs, q dividing them). */
function partReplicaShapes(classes: readonly NodeClass[]): ReplicaShape[] {
  const shapes: ReplicaShape[] = [];
  for (const c of classes) {
    const g = (c.machines[0] as number[]).length;
    for (let q = 1; q < g; q++) {
      if (g % q !== 0) continue;
      const devices = c.machines.flatMap((m) => Array.from({ length: g / q }, (_, p) => m.slice(p * q, (p + 1) * q)));
      shapes.push({
        replicas: devices.length,
        devices,
        label: `${devices.length} replicas of ${q} GPUs`,
        space: (sub) => hybridSpace(sub),
      });
    }
  }
  return shapes;
}

/** The links among some devices, by the identity of the whole list (a search's variants share it). */
const linkSubsets = new WeakMap<readonly PlanLink[], Map<string, PlanLink[]>>();

function linksAmong(links: readonly PlanLink[], ids: ReadonlySet<string>): PlanLink[] {
  let byKey = linkSubsets.get(links);
  if (!byKey) {
    byKey = new Map();
    linkSubsets.set(links, byKey);
  }
  const key = [...ids].join('\n');
  let subset = byKey.get(key);
  if (!subset) {
    subset = linksAmongDevices(links, ids);
    byKey.set(key, subset);
  }
  return subset;
}

/** The replica's own problem: its devices, the links among them, its share of the batch. */
function replicaProblem(problem: PlanProblem, devices: readonly number[], replicas: number): PlanProblem {
  const list = devices.map((i) => problem.devices[i] as PlanProblem['devices'][number]);
  return {
    ...problem,
    devices: list,
    links: linksAmong(problem.links, new Set(list.map((d) => d.id))),
    batch: problem.batch / replicas,
  };
}

/** A replica's stages spread over every replica: position j of replica 0 → position j of each. */
function expandStages(stages: readonly StageSpec[], shape: ReplicaShape, problem: PlanProblem): StageSpec[] {
  const first = shape.devices[0] as number[];
  const position = new Map(first.map((d, j) => [problem.devices[d]?.id as string, j]));
  return stages.map((s) => ({
    ...s,
    devices: shape.devices.flatMap((replica) =>
      s.devices.map((id) => problem.devices[replica[position.get(id) as number] as number]?.id as string),
    ),
  }));
}

export function clusterSearch(ctx: PlannerContext, opts: ClusterSearchOptions): ClusterSearchResult {
  const { problem } = ctx;
  const classes = nodeClasses(problem);
  const machines = classes.reduce((n, c) => n + c.machines.length, 0);
  const out: ClusterSearchResult = { plans: [], replicaShapes: 0, skipped: [] };
  if (machines < 2) return out;
  const maxStates = opts.maxStates ?? 4e6;
  const shapes = [...machineReplicaShapes(classes), ...partReplicaShapes(classes)]
    .filter((shape) => problem.batch % shape.replicas === 0)
    .map((shape) => {
      const sub = replicaProblem(problem, shape.devices[0] as number[], shape.replicas);
      // The sub-problem is part of a checked one: its tables only.
      const subCtx: PlannerContext = { problem: sub, cost: ctx.cost, tables: new CostTables(sub, ctx.cost) };
      const space = shape.space(sub);
      return { shape, subCtx, space, states: spaceStateCount(subCtx, space, opts.schedule) };
    })
    .sort((a, b) => a.states - b.states);
  // A replica's step is a lower bound of its spread plan's (same stage times; the spread plan's
  // gradient sync and cuts run over supersets of the replica's devices), so the best spread plan
  // so far bounds the later, larger searches.
  let best = opts.bound ?? Infinity;
  for (const { shape, subCtx, space, states } of shapes) {
    const ms = opts.microbatches.filter((m) => subCtx.problem.batch % m === 0);
    if (ms.length === 0) continue;
    if (states > maxStates) {
      out.skipped.push(`${shape.label}: ${states.toExponential(1)} DP states`);
      continue;
    }
    out.replicaShapes++;
    const r = pipelineSearch(subCtx, { schedule: opts.schedule, microbatches: ms, space, maxStates, bound: best });
    for (const m of r.byMicrobatches) {
      if (!m.plan) continue;
      const stages = expandStages(m.plan.stages, shape, problem);
      const plan = pricePlan(ctx, { stages, microbatches: m.microbatches, schedule: opts.schedule });
      out.plans.push(plan);
      if (plan.feasible) best = Math.min(best, plan.stepUs);
    }
  }
  return out;
}
