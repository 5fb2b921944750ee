/**
 * The datasheet GPUs (models/gpus.json) as a person looks for them: every one, or those a typed
 * name matches as `--virtual` matches it, newest architecture first and the most memory first
 * within one, with what `--virtual` would take the name as. `pipedejavu gpus` and the app's
 * picker list them. Needs no store.
 */
import {
  GPU_DATASHEETS,
  gpuNameMatches,
  resolveGpuNameWithNote,
  virtualGpuName,
  type GpuDatasheet,
} from '../../core/planner/cost/datasheets.js';
import { GPU_ARCHITECTURE_NAMES } from '../../core/domain/gpu-architectures.js';
import { UserError } from '../../core/errors.js';
import { quoted } from '../../core/text/shown.js';
import { TEXT_LIMITS } from '../../core/workload/limits.js';

/** What a searched name is taken as by `--virtual`: one GPU (with the family note when it picked one) or a refusal. */
export interface GpuSearch {
  text: string;
  /** The GPU `--virtual TEXT` plans on; null when it refuses the name. */
  picks: string | null;
  /** The family note ("h100" stands for ...), or why `--virtual` refuses the name; null when it names one GPU. */
  note: string | null;
}

export interface GpuListing {
  gpus: GpuDatasheet[];
  /** Present when a search was given. */
  search?: GpuSearch;
}

const generation = (g: GpuDatasheet): number => GPU_ARCHITECTURE_NAMES.indexOf(g.architecture);
const board = (g: GpuDatasheet): number => (g.formFactor === 'sxm' ? 0 : 1);
const fp16 = (g: GpuDatasheet): number => g.tflops.fp16 ?? 0;

/** Newest architecture first; within one, the most memory, SXM before PCIe, the fastest fp16, then by name. */
function sortedDatasheets(gpus: readonly GpuDatasheet[]): GpuDatasheet[] {
  return [...gpus].sort(
    (a, b) =>
      generation(b) - generation(a) ||
      b.memory.sizeGiB - a.memory.sizeGiB ||
      board(a) - board(b) ||
      fp16(b) - fp16(a) ||
      a.name.localeCompare(b.name),
  );
}

/** Every datasheet GPU, or those `search` matches (a UserError naming the closest when none does). */
export function listDatasheetGpus(search?: string): GpuListing {
  // A count as --virtual takes it ("4xH100") searches for the name.
  const text = virtualGpuName(search ?? '');
  if (text === '') return { gpus: sortedDatasheets(GPU_DATASHEETS) };
  if (text.length > TEXT_LIMITS.gpuName)
    throw new UserError(`a search of ${text.length} characters is no GPU name (at most ${TEXT_LIMITS.gpuName})`);
  const gpus = sortedDatasheets(gpuNameMatches(text));
  try {
    const r = resolveGpuNameWithNote(text);
    return { gpus, search: { text, picks: r.datasheet.name, note: r.note } };
  } catch (e) {
    // No match: the resolver's refusal names the closest. Several unrelated: list them.
    if (!(e instanceof UserError) || gpus.length === 0) throw e;
    return { gpus, search: { text, picks: null, note: `--virtual ${quoted(text)} is refused: name one of these` } };
  }
}
