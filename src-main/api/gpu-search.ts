/**
 * The app's datasheet GPU search, matching names as `--virtual` and `pipedejavu gpus` do: case,
 * spaces, punctuation and vendor words ignored, each typed word anywhere in one of the GPU's
 * names ("4090", "h100 sxm", "a6000"). The renderer reaches the core only through the api. Pure.
 */
import { namesHoldWords, typedWords } from '../core/planner/cost/gpu-names.js';
import type { DatasheetGpuView } from './view-models.js';

/** Whether the GPU is one the search text names; empty text matches every GPU. */
export function gpuMatchesSearch(gpu: DatasheetGpuView, text: string): boolean {
  const words = typedWords(text);
  return words.length === 0 || namesHoldWords(gpu.names, words);
}
