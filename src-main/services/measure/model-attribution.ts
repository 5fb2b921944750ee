/**
 * A model's measured time per executed node: the traced pass's per-node times, less the
 * ORT trace's own cost per node, scaled down where they add up to more than the untraced
 * end to end less the per-run cost and the binding's copies of the inputs and outputs
 * (the ORT trace slows every node down; its shares are what it is good for). Never scaled up:
 * an untraced end to end above the traced nodes is time outside them (see attributeNodes).
 * One home for measure-model and the calibration at the end of a profile.
 */
import { bindingUs, withoutTraceCost, type BindingCost } from '../../core/profiler/overhead.js';
import { median, summarize } from '../../core/profiler/timing-stats.js';
import type { WorkloadNode } from '../../core/workload/types.js';
import type { ModelOutcome } from '../../adapters/ort/protocol.js';

export interface AttributedNode {
  /** Index into the nodes given (the graph that ran). */
  index: number;
  name: string;
  /** Median of the scaled samples of the runs the node ran in, µs. */
  measuredUs: number;
  /** Scaled per-run samples, µs. */
  samples: number[];
}

export interface Attribution {
  /** Untraced end to end, median µs. */
  endToEndUs: number;
  nodes: AttributedNode[];
  /** Trace nodes that match no node given (name or op type differ). */
  unmatched: number;
}

/**
 * The device's overhead as attribution needs it (workload-service deviceOverhead), with the
 * stored overhead's keys: `profiler...` is the ORT trace's cost (RunOverhead).
 */
export interface AttributionOverhead {
  runUs: number;
  /** What the ORT trace adds to every node's trace time (µs); null when not measured. */
  profilerNodeUs: number | null;
  /** What the ORT trace adds to a run per node, inside and between node events (µs); null when not measured. */
  profilerRunNodeUs?: number | null;
  binding?: BindingCost | null;
}

export function attributeNodes(
  outcome: Extract<ModelOutcome, { ok: true }>,
  nodes: readonly WorkloadNode[],
  overhead: AttributionOverhead | null,
  ioBytes = 0,
): Attribution {
  const traceNodeUs = overhead?.profilerNodeUs ?? null;
  const endToEndUs = summarize(outcome.wallUs).medianUs;
  const trace = inGraphNames(outcome, nodes);
  const byNodeUs = exclusiveOfBranches(trace.byNodeUs, nodes, traceGapUs(overhead));
  const traced = Object.values(byNodeUs).reduce((a, v) => a + withoutTraceCost(median(v), 1, traceNodeUs), 0);
  // runUs already holds the binding's per-call cost; its copies grow with the bytes.
  const copiesUs = overhead?.binding ? bindingUs(overhead.binding, ioBytes) - overhead.binding.perCallUs : 0;
  const target = endToEndUs - (overhead?.runUs ?? 0) - copiesUs;
  // Down only. What the untraced runs take beyond the traced nodes is not the nodes': the
  // binding's copies run in phases of Node's collector (a one-node Sigmoid over 360 KB ran
  // 35 µs in ORT and 250 µs from Node, run after run), and a busy moment slows the whole loop.
  const scale = traced > 0 && target > 0 ? Math.min(1, target / traced) : 1;
  const byName = new Map(nodes.map((n, i) => [n.name, i]));
  const out: AttributedNode[] = [];
  let unmatched = 0;
  for (const [name, exclusive] of Object.entries(byNodeUs)) {
    const index = byName.get(name);
    if (index === undefined || nodes[index]?.opType !== trace.nodeOps[name]) {
      unmatched++;
      continue;
    }
    const samples = exclusive.map((v) => withoutTraceCost(v, 1, traceNodeUs) * scale);
    // The runs the node ran in (its trace time), an If whose branch took all its time included.
    const ran = samples.filter((_, run) => (trace.byNodeUs[name]?.[run] ?? 0) > 0);
    out.push({ index, name, measuredUs: ran.length ? median(ran) : 0, samples });
  }
  return { endToEndUs, nodes: out, unmatched };
}

/**
 * The trace's per-node times under the names the given graph has for those nodes. ORT names
 * the NCHWc reorders it inserts (ReorderOutput_token_N) differently in every session of the
 * same model: in a second session of PaddleOCR det (ORT 1.30, CPU EP), 52 of its 400 executed
 * nodes bore another node's name, so a 1x1 map's ReorderOutput took a 1 ms reorder's time.
 * A node's first output is the same in every session: the traced session reports it
 * (outcome.nodeOutputs) and it is matched to the graph's nodes. A node it does not report, or
 * whose output the graph does not have, keeps its trace name.
 */
function inGraphNames(
  outcome: Pick<Extract<ModelOutcome, { ok: true }>, 'byNodeUs' | 'nodeOps' | 'nodeOutputs'>,
  nodes: readonly WorkloadNode[],
): { byNodeUs: Record<string, number[]>; nodeOps: Record<string, string> } {
  const reported = outcome.nodeOutputs;
  if (!reported) return { byNodeUs: outcome.byNodeUs, nodeOps: outcome.nodeOps };
  const byOutput = new Map<string, string>();
  for (const n of nodes) {
    const out = n.outputs[0]?.name;
    if (out) byOutput.set(out, n.name);
  }
  const rename = (name: string): string => {
    const out = reported[name];
    return (out !== undefined ? byOutput.get(out) : undefined) ?? name;
  };
  const byNodeUs: Record<string, number[]> = {};
  const nodeOps: Record<string, string> = {};
  for (const [name, times] of Object.entries(outcome.byNodeUs)) byNodeUs[rename(name)] = times;
  for (const [name, op] of Object.entries(outcome.nodeOps)) nodeOps[rename(name)] = op;
  return { byNodeUs, nodeOps };
}

/**
 * What the ORT trace adds between two node events (µs): its cost per node inside model_run less
 * the part inside the node's own event. An If's event spans its branch's nodes and these gaps
 * between them; at the top level the gaps fall in no node. 0 when either is not measured.
 */
export function traceGapUs(overhead: AttributionOverhead | null): number {
  const inside = overhead?.profilerNodeUs;
  const perNode = overhead?.profilerRunNodeUs;
  return inside == null || perNode == null ? 0 : Math.max(0, perNode - inside);
}

/**
 * Trace times with each If's own time less its branch's nodes (which the trace also lists, and
 * which ran inside it) and the ORT trace's gap after each of them, so that no time is counted
 * twice and the ORT trace's bookkeeping inside the If is not taken for the If's. Per run; a
 * branch node that did not run in a run takes nothing off; never below zero.
 */
export function exclusiveOfBranches(
  byNodeUs: Readonly<Record<string, number[]>>,
  nodes: readonly WorkloadNode[],
  gapUs = 0,
): Record<string, number[]> {
  const out: Record<string, number[]> = { ...byNodeUs };
  const children = new Map<string, string[]>();
  for (const n of nodes) {
    if (!n.branchOf) continue;
    const list = children.get(n.branchOf) ?? [];
    list.push(n.name);
    children.set(n.branchOf, list);
  }
  for (const [parent, kids] of children) {
    const own = byNodeUs[parent];
    if (!own) continue;
    out[parent] = own.map((v, run) =>
      Math.max(
        0,
        kids.reduce((a, k) => {
          const kid = byNodeUs[k]?.[run] ?? 0;
          return kid > 0 ? a - kid - gapUs : a;
        }, v),
      ),
    );
  }
  return out;
}
