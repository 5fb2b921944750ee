/**
 * nccl-tests results measured on devices of the plan: an all-reduce, all-gather or reduce-scatter
 * over exactly those devices replaces the modelled one, and a two-machine all-reduce pair gives the
 * measured link between them. Pure.
 */
import { UserError } from '../../errors.js';
import { count } from '../../text/plural.js';
import type { MeasuredCollective } from '../cost/cost-model.js';
import { bandwidthRefusal, latencyRefusal } from '../cost/links.js';
import { SHARD_COLLECTIVES } from '../cost/gather-scatter.js';
import { fitNcclTests, parseNcclTests } from '../cost/nccl-tests.js';
import type { LinkRule } from '../cost/network-statement.js';
import type { PlanDevice } from '../types.js';

/** An nccl-tests output file as the request gives it. */
export interface NcclTestsFile {
  source: string;
  text: string;
}

/** Why an nccl-tests result gives no fit: fewer than two sizes, or times that do not grow with size. */
function unfittable(source: string, rows: readonly { sizeBytes: number }[]): string {
  const sizes = new Set(rows.filter((r) => r.sizeBytes > 0).map((r) => r.sizeBytes)).size;
  return sizes < 2
    ? `${source}: ${count(sizes, 'message size')} above 0 B (a latency and a bandwidth need two or more); ignored`
    : `${source}: the times do not grow with the size (no positive bandwidth fits them); ignored`;
}

const MEASURED_OPS: readonly MeasuredCollective['op'][] = ['all_reduce', ...SHARD_COLLECTIVES];
const isMeasuredOp = (op: string): op is MeasuredCollective['op'] => (MEASURED_OPS as readonly string[]).includes(op);

/**
 * nccl-tests results whose ranks are all devices of the plan (host = machine label, device = cuda
 * index) become measured costs of their collective (all_reduce, all_gather, reduce_scatter) for
 * exactly that device set; others are named in a warning.
 */
export function measuredCollectives(
  files: readonly NcclTestsFile[],
  devices: readonly PlanDevice[],
  warnings: string[],
): MeasuredCollective[] {
  const out: MeasuredCollective[] = [];
  for (const f of files) {
    const result = parseNcclTests(f.text, { source: f.source });
    const op = result.op;
    if (!isMeasuredOp(op)) {
      warnings.push(`${f.source}: ${op} results are not used (the planner prices ${MEASURED_OPS.join(', ')} only)`);
      continue;
    }
    const name = op.replace('_', '-');
    const fit = fitNcclTests(result);
    if (!fit) {
      warnings.push(unfittable(f.source, result.rows));
      continue;
    }
    const problem = bandwidthRefusal(fit.fit.gbps) ?? latencyRefusal(fit.fit.alphaUs);
    if (problem) throw new UserError(`${f.source}: fitted from the measured ${name}, ${problem}`);
    const hosts = new Set(devices.map((d) => d.machine));
    const ids = result.ranks.map((r) => {
      const machine = hosts.has(r.host) ? r.host : hosts.size === 1 ? [...hosts][0] : null;
      const d = devices.find((x) => x.machine === machine && x.id.endsWith(`/cuda:${r.device}`));
      return d?.id ?? null;
    });
    if (ids.length === 0 || ids.some((x) => x === null)) {
      const missing = result.ranks.filter((_, i) => ids[i] === null).map((r) => `${r.host} cuda:${r.device}`);
      warnings.push(
        `${f.source}: ranks ${missing.join(', ') || '(none listed)'} are not devices of this plan; the ${name} model is kept`,
      );
      continue;
    }
    out.push({ op, devices: ids as string[], fit: fit.fit });
    warnings.push(
      `${f.source}: measured ${name} over ${count(ids.length, 'device')} (${fit.fit.alphaUs.toFixed(1)} µs + ${fit.fit.gbps.toFixed(1)} GB/s) replaces the model`,
    );
  }
  return out;
}

/**
 * nccl-tests all-reduce between two machines, one GPU on each (the pair recipe in cluster/):
 * the measured link between them. A two-rank ring all-reduce of S bytes takes S/β + 2α, so the
 * fit's bandwidth is the link's and half its latency the link's. Other results are left to
 * measuredCollectives.
 */
export function measuredNetworkRules(
  files: readonly NcclTestsFile[],
  machines: ReadonlySet<string>,
  warnings: string[],
): LinkRule[] {
  const rules: LinkRule[] = [];
  for (const f of files) {
    const result = parseNcclTests(f.text, { source: f.source });
    const hosts = [...new Set(result.ranks.map((r) => r.host))];
    if (result.op !== 'all_reduce' || result.ranks.length !== 2 || hosts.length !== 2) continue;
    const [a, b] = hosts as [string, string];
    if (!machines.has(a) || !machines.has(b)) {
      warnings.push(`${f.source}: measured between ${a} and ${b}, not both machines of this plan; not used`);
      continue;
    }
    const fit = fitNcclTests(result);
    if (!fit) {
      warnings.push(unfittable(f.source, result.rows));
      continue;
    }
    const gbps = Math.round(fit.fit.gbps * 1000) / 1000;
    const alphaUs = Math.round((fit.fit.alphaUs / 2) * 10) / 10;
    const problem = bandwidthRefusal(gbps) ?? latencyRefusal(alphaUs);
    if (problem) throw new UserError(`${f.source}: the measured link ${a} <-> ${b}: ${problem}`);
    // One GPU on each node measured: one rail, as nothing says how many NICs the nodes have.
    const network = {
      label: `${gbps}GB/s measured`,
      kind: 'measured' as const,
      lineGbitps: gbps * 8,
      gbps,
      alphaUs,
      rails: 1,
    };
    rules.push({ a, b, network, origin: f.source });
    warnings.push(
      `${f.source}: measured link ${a} <-> ${b}: ${gbps} GB/s, ${alphaUs} µs (nccl-tests) replaces the stated network`,
    );
  }
  return rules;
}
