/**
 * Mixture-of-experts blocks: each block's expert parameters, count and top-k for the planner, and
 * the one-line refusal when no device (or tensor-parallel group) holds one expert or one block. Pure.
 */
import { isExpertNode } from '../../catalog/block-names.js';
import type { CatalogEntry, CatalogLayer } from '../../catalog/index.js';
import { UserError } from '../../errors.js';
import { count } from '../../text/plural.js';
import type { Workload } from '../../workload/types.js';
import { formatBytes } from '../../text/bytes.js';
import type { PlanLayer, PlanProblem } from '../types.js';

/**
 * Each mixture-of-experts block's expert parameters, expert count and top-k (a decode step reads
 * only the experts its tokens touch, serving.ts); other layers as they are.
 */
export function withExperts(w: Workload, e: CatalogEntry | null, layers: PlanLayer[]): PlanLayer[] {
  if (!e || e.kind !== 'transformer' || e.experts === undefined || e.topK === undefined) return layers;
  const { experts: count, topK } = e;
  return layers.map((l, i) => {
    const nodes = w.layers[i]?.nodes ?? [];
    const params = nodes.reduce(
      (s, n) => s + (isExpertNode(w.nodes[n]?.name ?? '') ? (w.nodes[n]?.params ?? 0) : 0),
      0,
    );
    return params > 0 ? { ...l, experts: { params, count, topK } } : l;
  });
}

/**
 * A mixture-of-experts block holds its experts on the device of its stage, or spread over the
 * members of a tensor-parallel group (expert parallelism, withTensorSplit). When no device holds
 * one expert, or no group of the allowed degrees holds one block, say so in one line instead of
 * listing every plan as not fitting.
 */
export function checkExpertsFit(w: Workload, problem: PlanProblem): void {
  // The first block with experts (DeepSeek's first blocks are dense).
  const first = w.layers.find((l) => l.nodes.some((k) => isExpertNode(w.nodes[k]?.name ?? '')));
  const block = first ? problem.layers[first.index] : undefined;
  if (!first || !block) return;
  const experts = first.nodes.flatMap((k) => {
    const n = w.nodes[k];
    return n && isExpertNode(n.name) && n.params > 0 ? [n] : [];
  });
  const largest = Math.max(0, ...problem.devices.map((d) => d.memoryBytes));
  const purpose = problem.mode === 'training' ? 'to train' : 'to serve';
  const expertParams = experts.reduce((s, n) => s + n.params, 0);
  const expertCount = block.tensor?.experts ?? experts.length;
  // Fine-tuning holds the experts frozen: their stored bytes, not the optimizer's.
  const tuned = (first as CatalogLayer).finetune;
  const perParam = tuned ? block.frozenBytes! / Math.max(1, tuned.frozenParams) : problem.bytesPerParam;
  const one = (expertParams / expertCount) * perParam + problem.overheadBytes;
  if (one > largest) {
    throw new UserError(
      `${w.name}: one expert (${(expertParams / expertCount / 1e9).toFixed(2)}B parameters) needs ${formatBytes(one)} ${purpose}; ` +
        `the largest device in the plan has ${formatBytes(largest)}`,
    );
  }
  const gpus = problem.devices.length;
  const degree = Math.max(...(problem.tensorDegrees ?? [1]).filter((t) => t <= gpus), 1);
  const blockBytes = (block.frozenBytes ?? 0) + block.params * problem.bytesPerParam;
  const share = blockBytes / degree + problem.overheadBytes;
  if (share <= largest) return;
  throw new UserError(
    `${w.name}: one block with its experts (${(expertParams / 1e9).toFixed(2)}B expert parameters) needs ${formatBytes(share)} per device` +
      (degree > 1 ? ` spread over ${count(degree, 'device')} (expert parallelism)` : '') +
      ` ${purpose}; the largest device in the plan has ${formatBytes(largest)}`,
  );
}
