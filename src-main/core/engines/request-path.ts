/**
 * A request's path before the scheduler sees it: the server turns the prompt's text into token ids
 * in one process, one request after another (SGLang's TokenizerManager: tokenizer_manager.py
 * generate_request -> _tokenize_one_request, `input_ids = self.tokenizer.encode(input_text)` in the
 * HTTP server's event loop, then _send_one_request to the scheduler over ZMQ; read at 0.4.3.post4,
 * sgl-project/sglang 00f42707 via the fork qingquansong/sglang). The GPU does not wait for it: the
 * engine goes on stepping the sequences it runs. The tokenizer's cost is per byte of text (Hugging
 * Face's figure is in MB/s), so a load whose text packs more bytes into a token (the benchmarks'
 * random prompts: bench/lib/random-prompts.ts) takes longer per token than English. Pure.
 */

/**
 * Bytes of English text a Llama 3 token stands for: "Compared to the Llama 2 tokenizer, our new
 * tokenizer improves compression rates on a sample of English data from 3.17 to 3.94 characters per
 * token" (Meta, "The Llama 3 Herd of Models", 2024, section 3.2; ASCII: a character is a byte).
 */
export const ENGLISH_BYTES_PER_TOKEN = 3.94;
/**
 * Hugging Face's fast (Rust) tokenizer with Llama 3.1's tokenizer, one thread, documents of 2.5 KB
 * (XNLI, 24.59 KB in 10 documents): "huggingface 1.93 MB / s" (huggingface/tokenizers PR #1582, "Add
 * benchmark vs tiktoken", Narsil, a tokenizers maintainer, 2024-07-31). Bytes per µs.
 */
const HF_TOKENIZER_BYTES_PER_US = 1.93;

/** CPU time to tokenize one prompt token with Hugging Face's fast tokenizer (µs): 3.94 / 1.93 = 2.04. */
export const HF_TOKENIZER_US_PER_TOKEN = ENGLISH_BYTES_PER_TOKEN / HF_TOKENIZER_BYTES_PER_US;

/**
 * Tokenizer time per prompt token (µs) for text of `bytesPerToken` (default English) when the
 * engine's tokenizer takes `usPerEnglishToken` on English. A bad byte count is a RangeError (a
 * caller's bug: no user input reaches it unchecked).
 */
export function tokenizeUsPerToken(usPerEnglishToken: number, bytesPerToken = ENGLISH_BYTES_PER_TOKEN): number {
  if (!(bytesPerToken > 0) || !Number.isFinite(bytesPerToken)) {
    throw new RangeError(`bytes per prompt token must be a positive number, got ${bytesPerToken}`);
  }
  return (usPerEnglishToken * bytesPerToken) / ENGLISH_BYTES_PER_TOKEN;
}

/**
 * When a request sent at `sentAt` reaches the scheduler (µs): after the requests the tokenizing
 * process took before it (it is free from `freeAt`) and its own prompt's tokenization.
 */
export function tokenizedAt(freeAt: number, sentAt: number, promptTokens: number, usPerToken: number): number {
  return Math.max(freeAt, sentAt) + promptTokens * usPerToken;
}
