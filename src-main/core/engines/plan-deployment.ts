/**
 * A plan's layout as an engine deployment (one replica: its stages and tensor-parallel groups),
 * the engine's refusal of a layout it cannot run, and the links it prices collectives over. Pure.
 */
import type { TransformerEntry } from '../catalog/schema.js';
import { isBlockName } from '../catalog/block-names.js';
import { linkBetween } from '../planner/cost/collectives.js';
import type { CostModel } from '../planner/cost/cost-model.js';
import { datasheetFor, type GpuDatasheet } from '../planner/cost/datasheets.js';
import type { KernelEfficiencies } from '../predictor/kernel-efficiency.js';
import type { Plan, PlanLink, PlanProblem } from '../planner/types.js';
import type { WeightFormat } from '../workload/generation.js';
import { engineDeployment, type DeploymentStage } from './engine-deployment.js';
import { ENGINES } from './engine-names.js';
import type { EngineRules } from './engine-rules.js';
import type { EngineDeployment } from './engine-step.js';

export interface PlanDeploymentInput {
  engine: EngineRules;
  entry: TransformerEntry;
  format: WeightFormat;
  kvCache: 'auto' | 'fp8';
  problem: Pick<PlanProblem, 'layers' | 'devices' | 'links'>;
  costModel: CostModel;
  /** The kernel fractions a profiled GPU of the datasheet's architecture lends; absent: the shipped ones. */
  table?: (gpu: GpuDatasheet) => KernelEfficiencies | undefined;
}

/**
 * A plan as a deployment; or why not: a layout the engine does not run ('layout': the plan is not
 * offered), or devices the engine model cannot price ('unpriced': a CPU, a GPU without a
 * datasheet; the plan keeps the kernel roofline's figures, said in a warning).
 */
export type PlanDeployment =
  | { ok: true; deployment: EngineDeployment; replicas: number; tp: number; pp: number }
  | { ok: false; reason: string; kind: 'layout' | 'unpriced' };

/** Link kinds over which GPUs reach each other's memory directly (NVLink, PCIe switches). */
const PEER_TO_PEER = /^(NVLINK|PIX|PXB)/;

/**
 * All-reduce over a tensor-parallel group as the engine runs it. With a custom all-reduce, every
 * pair of GPUs reaching the others' memory directly and a message within what the engine sends to
 * its own kernel (`customAllReduceUpTo`), the faster of its one-shot kernel (each GPU reads the
 * whole message from every peer through its own links: (n - 1) x bytes) and its two-shot kernel (a
 * reduce-scatter and an all-gather: 2 (n - 1) / n x bytes): the engine picks its kernel by the
 * message's size, not by which would be faster, so NCCL (the cost model's ring, tree or NVLS over
 * the links) prices only larger messages and groups without peer access.
 */
export function engineAllReduce(engine: EngineRules, links: readonly PlanLink[], costModel: CostModel) {
  return (members: readonly string[], bytes: number): number => {
    const n = members.length;
    if (n < 2 || bytes <= 0) return 0;
    if (engine.split.customAllReduce && n <= 8) {
      let alphaUs = 0;
      let gbps = Infinity;
      let p2p = true;
      for (let i = 0; i < n && p2p; i++) {
        for (let j = i + 1; j < n; j++) {
          const l = linkBetween(links, members[i] as string, members[j] as string);
          if (!l || !PEER_TO_PEER.test(l.kind)) {
            p2p = false;
            break;
          }
          alphaUs = Math.max(alphaUs, engine.split.allReduceUs);
          gbps = Math.min(gbps, l.gbps);
        }
      }
      if (p2p && bytes <= (engine.split.customAllReduceUpTo?.(n) ?? Infinity)) {
        const oneShot = alphaUs + (bytes * (n - 1)) / (gbps * 1e3);
        const twoShot = 2 * alphaUs + (2 * bytes * (n - 1)) / n / (gbps * 1e3);
        return Math.min(oneShot, twoShot);
      }
    }
    return costModel.allReduceUs(members, bytes);
  };
}

function refusal(engine: EngineRules, tp: number, pp: number, replicas: number): string | null {
  const title = ENGINES[engine.name].title;
  if (tp > 1 && !engine.split.tensor) return `${title} does not split layers over GPUs (tensor parallel ${tp})`;
  if (pp > 1 && engine.split.pipeline === 'none') return `${title} does not run pipeline stages (${pp} stages)`;
  if (replicas > 1 && !engine.split.replicas) return `${title} runs one replica per server (${replicas} replicas)`;
  if (tp > 1 && pp > 1 && engine.name === 'llama.cpp')
    return 'llama.cpp splits by layer (-sm layer) or by row (-sm row), not both';
  return null;
}

/** The plan's first replica as the engine's deployment; a layout the engine cannot run is refused with why. */
export function planDeployment(plan: Plan, input: PlanDeploymentInput): PlanDeployment {
  const { engine, problem } = input;
  const byId = new Map(problem.devices.map((d) => [d.id, d]));
  const tp = plan.stages[0]?.tp ?? 1;
  const replicas = Math.max(1, Math.floor((plan.stages[0]?.devices.length ?? 1) / tp));
  const pp = plan.stages.length;
  const why = refusal(engine, tp, pp, replicas);
  if (why) return { ok: false, reason: why, kind: 'layout' };
  const stages: DeploymentStage[] = [];
  for (const s of plan.stages) {
    const members = s.devices.slice(0, s.tp ?? 1);
    const sheets: GpuDatasheet[] = [];
    for (const id of members) {
      const d = byId.get(id);
      const ds = d && d.kind === 'gpu' ? datasheetFor(d.name) : null;
      if (!ds)
        return { ok: false, reason: `${d?.name ?? id} has no GPU datasheet for the engine model`, kind: 'unpriced' };
      sheets.push(ds);
    }
    const slowest = sheets.reduce((a, b) => (b.memory.bandwidthGBps < a.memory.bandwidthGBps ? b : a));
    const blocks = problem.layers.slice(s.from, s.to).filter((l) => isBlockName(l.name)).length;
    stages.push({ gpu: slowest, blocks, members });
  }
  const table = input.table;
  const deployment = engineDeployment({
    engine,
    entry: input.entry,
    format: input.format,
    kvCache: input.kvCache,
    stages,
    ...(table && stages[0] ? { table: table(stages[0].gpu) } : {}),
    allReduceUs: engineAllReduce(engine, problem.links, input.costModel),
    sendUs: (a, b, bytes) => input.costModel.linkUs(a, b, bytes),
  });
  return { ok: true, deployment, replicas, tp, pp };
}
