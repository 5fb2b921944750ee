/** Megatron-style tensor parallelism of a catalog transformer's blocks: which degrees, and each block's split. Pure. */
import { isBlockName } from '../../catalog/block-names.js';
import type { CatalogEntry } from '../../catalog/index.js';
import { UserError } from '../../errors.js';
import type { Workload } from '../../workload/types.js';
import type { PlanLayer } from '../types.js';

/** Tensor-parallel degrees searched when the request names none. */
const DEFAULT_TP_DEGREES = [1, 2, 4, 8];

/**
 * Megatron-style tensor parallelism of a catalog transformer: each block splits by head (by KV
 * head group under GQA) and its MLP by columns then rows, with two all-reduces of the block's
 * output forward and two backward. A trained decoder's embedding and LM head split by vocabulary
 * where the stack does (problem/vocab-parallel.ts); otherwise they stay whole on every member.
 * Requested degrees that do not divide the heads or KV heads are refused in one line; other
 * workloads (ONNX files) are not split, and asking for degrees above 1 says so.
 */
export function withTensorSplit(
  w: Workload,
  e: CatalogEntry | null,
  layers: PlanLayer[],
  requested: readonly number[] | undefined,
  warnings: string[],
): { layers: PlanLayer[]; tensorDegrees: number[] } {
  if (!e || e.kind !== 'transformer') {
    if (requested?.some((t) => t > 1)) {
      warnings.push(
        `${w.name}: tensor parallelism is planned for catalog transformers and GGUF decoders only; --tp ignored`,
      );
    }
    return { layers, tensorDegrees: [1] };
  }
  const kvHeads = e.kvHeads ?? e.heads;
  const divides = [e.heads, kvHeads, ...(e.experts !== undefined ? [e.experts] : [])];
  const bad = (requested ?? []).filter((t) => divides.some((n) => n % t !== 0));
  if (bad.length > 0) {
    const ok = DEFAULT_TP_DEGREES.filter((t) => divides.every((n) => n % t === 0));
    const experts = e.experts !== undefined ? `, ${e.experts} experts` : '';
    throw new UserError(
      `--tp ${bad.join(',')}: a tensor-parallel degree must divide ${w.name}'s ${e.heads} attention heads and ${kvHeads} KV heads${experts} (degrees that do: ${ok.join(', ')})`,
    );
  }
  // A mixture-of-experts block: attention split by head (one all-reduce each way), the experts spread
  // over the group (expert parallelism): each token goes to its topK experts and back by two
  // all-to-alls, each about half a ring all-reduce of the same bytes.
  const reduces = e.topK !== undefined ? 1 + e.topK : 2;
  const tensor = {
    divides,
    forwardAllReduces: reduces,
    backwardAllReduces: reduces,
    ...(e.experts !== undefined ? { experts: e.experts } : {}),
  };
  const degrees = (requested ?? DEFAULT_TP_DEGREES).filter((t) => divides.every((n) => n % t === 0));
  return {
    layers: layers.map((l) => (isBlockName(l.name) ? { ...l, tensor } : l)),
    tensorDegrees: [...new Set([1, ...degrees])].sort((a, b) => a - b),
  };
}
