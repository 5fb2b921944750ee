/**
 * The one rule for the sequence a text model is built at when none is asked (`--seq`, `fit --context`,
 * the app's Sequence field): the same for a catalog model (its `defaults.seq` in models/*.json, which
 * a test holds to this rule), a Hugging Face config.json or model folder, and a GGUF header. Pure.
 */
/** The longest default: a decoder is built at its context, at most this many tokens (an encoder at 128). */
export const DEFAULT_SEQUENCE_CAP = { decoder: 8192, encoder: 128 } as const;

/** Tokens per sequence when none is asked: the model's context (max_position_embeddings), capped by DEFAULT_SEQUENCE_CAP. */
export function defaultSequence(context: number, causal: boolean): number {
  return Math.min(context, causal ? DEFAULT_SEQUENCE_CAP.decoder : DEFAULT_SEQUENCE_CAP.encoder);
}

/** The rule in words, for `--help` and the docs. */
export const DEFAULT_SEQUENCE_TEXT =
  `the model's context (max_position_embeddings), at most ${DEFAULT_SEQUENCE_CAP.decoder.toLocaleString('en-US')} tokens ` +
  `for a decoder and ${DEFAULT_SEQUENCE_CAP.encoder} for an encoder`;
