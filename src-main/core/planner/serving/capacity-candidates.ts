/**
 * The deployments a capacity search tries: each GPU kind, at 1, 2, 4 or 8 GPUs per replica (as
 * many as the node holds), in each weight format its engine loads, laid out as the engine runs n
 * GPUs (one tensor-parallel group where n divides the heads, else n pipeline stages where the
 * engine runs them), kept only where the engine holds the weights and one request's whole
 * context in the KV cache. The GPUs of a replica are linked as a datasheet node links them (NVLink
 * between SXM boards, else PCIe through the host), and the engine's all-reduce runs over those
 * links. Every candidate holds its KV cache in the request's dtype (fp8: the engine's bytes for it). Pure.
 */
import type { TransformerEntry } from '../../catalog/schema.js';
import { engineDeployment, type DeploymentStage } from '../../engines/engine-deployment.js';
import { resolveEngine } from '../../engines/engine-formats.js';
import { replicaKvTokens } from '../../engines/engine-memory.js';
import type { EngineChoice, EngineName } from '../../engines/engine-names.js';
import type { EngineDeployment } from '../../engines/engine-step.js';
import { engineRules } from '../../engines/engines.js';
import { engineAllReduce } from '../../engines/plan-deployment.js';
import { UserError } from '../../errors.js';
import type { WeightFormat } from '../../workload/generation.js';
import { createCostModel } from '../cost/cost-model.js';
import { virtualDevice, type GpuDatasheet } from '../cost/datasheets.js';
import { buildPlanLinks } from '../cost/links.js';

/** GPUs per replica the search tries, within one node. */
const REPLICA_SIZES = [1, 2, 4, 8] as const;

export interface CandidateGpu {
  sheet: GpuDatasheet;
  /** The most GPUs of the kind one replica may take (the node's). */
  maxPerReplica: number;
}

export interface Candidate {
  gpu: GpuDatasheet;
  engine: EngineName;
  format: WeightFormat;
  tp: number;
  pp: number;
  deployment: EngineDeployment;
}

export interface CandidateRequest {
  entry: TransformerEntry;
  engine: Exclude<EngineChoice, 'ideal'>;
  formats: readonly WeightFormat[];
  gpus: readonly CandidateGpu[];
  /** Tokens one request holds at its end (prompt + output): a replica must cache at least one. */
  contextTokens: number;
  /** The KV cache's dtype every candidate runs with (default the model's). */
  kvCache?: 'auto' | 'fp8';
}

/** The stages one replica of n GPUs runs in: a tensor-parallel group, else pipeline stages; null when neither. */
function layout(
  entry: TransformerEntry,
  rules: ReturnType<typeof engineRules>,
  gpu: GpuDatasheet,
  members: string[],
): { stages: DeploymentStage[]; tp: number; pp: number } | null {
  const n = members.length;
  if (n === 1 || (rules.split.tensor && entry.heads % n === 0))
    return { stages: [{ gpu, blocks: entry.layers, members }], tp: n, pp: 1 };
  if (rules.split.pipeline === 'none' || n > entry.layers) return null;
  const base = Math.floor(entry.layers / n);
  const stages = members.map((m, i) => ({ gpu, blocks: base + (i < entry.layers % n ? 1 : 0), members: [m] }));
  return { stages, tp: 1, pp: n };
}

/** The engine a format runs on, or null when the asked engine does not load it. */
function engineFor(choice: CandidateRequest['engine'], format: WeightFormat): EngineName | null {
  try {
    const e = resolveEngine(choice, format);
    return e === 'ideal' ? null : e;
  } catch (e) {
    if (e instanceof UserError) return null;
    throw e;
  }
}

/** Every candidate deployment that holds the model and one request's context, with why others were dropped. */
export function capacityCandidates(req: CandidateRequest): { candidates: Candidate[]; dropped: string[] } {
  const candidates: Candidate[] = [];
  const dropped: string[] = [];
  for (const { sheet, maxPerReplica } of req.gpus) {
    let held = false;
    for (const n of REPLICA_SIZES.filter((k) => k <= maxPerReplica)) {
      const devices = Array.from({ length: n }, (_, i) => virtualDevice(sheet.name, { index: i }).device);
      const links = buildPlanLinks(devices).links;
      const costModel = createCostModel(links);
      for (const format of req.formats) {
        const engine = engineFor(req.engine, format);
        if (engine === null) continue;
        const rules = engineRules(engine);
        if (n > 1 && !rules.split.tensor && rules.split.pipeline === 'none') continue;
        const l = layout(
          req.entry,
          rules,
          sheet,
          devices.map((d) => d.id),
        );
        if (!l) continue;
        const deployment = engineDeployment({
          engine: rules,
          entry: req.entry,
          format,
          kvCache: req.kvCache ?? 'auto',
          stages: l.stages,
          allReduceUs: engineAllReduce(rules, links, costModel),
          sendUs: (a, b, bytes) => costModel.linkUs(a, b, bytes),
        });
        if (replicaKvTokens(deployment) < req.contextTokens) continue;
        held = true;
        candidates.push({ gpu: sheet, engine, format, tp: l.tp, pp: l.pp, deployment });
      }
    }
    if (!held)
      dropped.push(
        `${sheet.name}: up to ${maxPerReplica} GPUs per replica do not hold the model with one request's ${req.contextTokens} tokens of KV cache in ${req.formats.join(', ')}`,
      );
  }
  return { candidates, dropped };
}
