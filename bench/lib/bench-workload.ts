/**
 * What a serving benchmark's client sends, as the server sees it (issue 61, h65-ttft): a wrong
 * workload is a wrong cell, not a mechanism. Two facts, each measured or stated, none fitted:
 * - vLLM's benchmark_serving `--dataset-name random` (sample_random_requests at 0.8.2: the text of
 *   input_len consecutive vocabulary ids from a random offset, `tokenizer.decode`; range_ratio 1.0)
 *   is re-encoded by the server into more tokens than input_len, and its text packs more bytes into
 *   a token than English. Measured with Meta's Llama 3 vocabulary and merges (llama3-tokenizer-js
 *   1.2.0, 130 prompts of 1,000-32,000 tokens, bench/runs/h65-ttft.md): 1.046 tokens a nominal token
 *   (+1 BOS, which the server adds), 6.45 bytes of UTF-8 a nominal token = 6.16 a server token
 *   (English: 3.94). vLLM's own PR #17408 shows the same direction (Llama 3.1 8B, 4,000 -> 4,106).
 *   Other tokenizers (Qwen's, for QwQ-32B) are not measured: their prompts stay as stated.
 * - ShareGPT runs whose source states the run's total input and generated tokens: the lengths'
 *   means are those totals over the request count (the lognormal's median solved for that mean
 *   under its clamp), not the dataset-wide assumption.
 */

/** Server tokens per nominal token of a random-dataset prompt (Llama 3's tokenizer). */
const RANDOM_TOKENS_PER_NOMINAL = 1.046;
/** Bytes of UTF-8 per server token of a random-dataset prompt (Llama 3's tokenizer). */
export const RANDOM_BYTES_PER_TOKEN = 6.16;
/** Llama 3's vocabulary (128,000 BPE ids + 256 special): the tokenizer measured above. */
export const LLAMA3_VOCAB = 128_256;

/** Tokens the server sees for a random-dataset prompt of `nominal` tokens (Llama 3): re-encoded, plus BOS. */
export function randomPromptTokens(nominal: number): number {
  return Math.round(nominal * RANDOM_TOKENS_PER_NOMINAL) + 1;
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 via erf; |error| < 1.5e-7). */
function phi(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** Mean of min(X, max) for X lognormal with this median and sigma. */
export function clampedLognormalMean(median: number, sigma: number, max: number): number {
  const mu = Math.log(median);
  const c = Math.log(max);
  return Math.exp(mu + (sigma * sigma) / 2) * phi((c - mu - sigma * sigma) / sigma) + max * (1 - phi((c - mu) / sigma));
}

/** The median whose lognormal (sigma, clamped to max) has `mean`; null when no median gives it. */
export function medianForMean(mean: number, sigma: number, max: number): number | null {
  if (!(mean > 0) || mean >= max) return null;
  let lo = 1e-6;
  let hi = max;
  for (let i = 0; i < 100; i++) {
    const mid = Math.sqrt(lo * hi);
    if (clampedLognormalMean(mid, sigma, max) < mean) lo = mid;
    else hi = mid;
  }
  return Math.sqrt(lo * hi);
}
