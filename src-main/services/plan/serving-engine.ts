/**
 * The engine a served decoder is priced on: the request's choice resolved against the weight format
 * (auto, a format the engine cannot load refused in one line), its rules at the asked version, and
 * the kernel fractions a profiled GPU lends to datasheet GPUs of its architecture.
 */
import type { CatalogEntry, TransformerEntry } from '../../core/catalog/index.js';
import { headDimOf } from '../../core/catalog/block-layout.js';
import { UserError } from '../../core/errors.js';
import { resolveEngine } from '../../core/engines/engine-formats.js';
import { ENGINES } from '../../core/engines/engine-names.js';
import { engineRules } from '../../core/engines/engines.js';
import type { EngineRules } from '../../core/engines/engine-rules.js';
import type { Dtype } from '../../core/domain/measurement.js';
import type { GpuDatasheet } from '../../core/planner/cost/datasheets.js';
import type { ServingEngine } from '../../core/planner/serving/plan-serving.js';
import type { PlanSummary } from '../../core/planner/plan-summary.js';
import type { KernelEfficiencies } from '../../core/predictor/kernel-efficiency.js';
import type { WeightFormat } from '../../core/workload/generation.js';
import type { Database } from '../../adapters/store/types.js';
import { transferredTable } from '../predict/datasheet-transfer.js';
import type { PlanRequest } from './plan-request.js';

/** The format a served decoder's weights are read in: --weights, else its compute dtype (fp8 GEMMs: fp8). */
export function servedFormat(weights: WeightFormat | undefined, dtype: Dtype): WeightFormat {
  if (weights) return weights;
  return dtype === 'fp8' || dtype === 'fp32' || dtype === 'bf16' ? dtype : 'fp16';
}

/** The engine's host without its request-path tokenizer (a client that sends token ids). */
function withoutTokenizer(host: EngineRules['host']): EngineRules['host'] {
  const { tokenizeUsPerToken: _tokenizer, ...rest } = host;
  return rest;
}

/**
 * Whether the engine runs its flash attention, where a flag switches it (llama.cpp -fa): as asked,
 * else with an 8-bit KV cache (llama.cpp refuses a quantized V cache without it: llama_context's
 * "V cache quantization requires flash_attn"), else off (b3140's default, which its rules price).
 * Undefined for an engine without the switch.
 */
function flashAttentionAsked(
  rules: EngineRules,
  asked: boolean | undefined,
  kvCache: 'auto' | 'fp8',
): boolean | undefined {
  if (!rules.flashAttention) return undefined;
  if (asked === false && kvCache === 'fp8')
    throw new UserError(
      `${rules.name}'s 8-bit KV cache (-ctk q8_0 -ctv q8_0) needs flash attention: drop engineSettings.flashAttention: false, or --kv-cache fp8`,
    );
  return asked ?? kvCache === 'fp8';
}

/** Whether the rules price the engine's flash attention (llama.cpp -fa on); undefined: the engine has no switch. */
export function pricesFlashAttention(rules: EngineRules): boolean | undefined {
  return rules.flashAttention ? rules.attention.prefill === rules.flashAttention.prefill : undefined;
}

/** The engine's rules with the caps a launch line sets, and no tokenizer for a client that sends token ids. */
function withSettings(rules: EngineRules, s: PlanRequest['engineSettings'], kvCache: 'auto' | 'fp8'): EngineRules {
  const flash = flashAttentionAsked(rules, s?.flashAttention, kvCache) === true && rules.flashAttention;
  if (!s) return flash ? { ...rules, attention: flash } : rules;
  return {
    ...rules,
    ...(s.tokenIds === true ? { host: withoutTokenizer(rules.host) } : {}),
    ...(flash ? { attention: flash } : {}),
    batching: {
      ...rules.batching,
      ...(s.maxNumSeqs !== undefined ? { maxNumSeqs: s.maxNumSeqs } : {}),
      ...(s.maxBatchedTokens !== undefined ? { maxBatchedTokens: s.maxBatchedTokens } : {}),
      ...(s.schedulerSteps !== undefined ? { schedulerSteps: s.schedulerSteps } : {}),
    },
    memory: {
      ...rules.memory,
      ...(s.memoryUtilization !== undefined ? { utilization: s.memoryUtilization, utilizationByTp: [] } : {}),
      ...(s.kvShareOfFree !== undefined ? { kvShareOfFree: s.kvShareOfFree } : {}),
    },
  };
}

export interface ResolvedEngine {
  /** Null for 'ideal' or a workload the engine model cannot describe (not a catalog transformer). */
  serving: ServingEngine | null;
  summary: NonNullable<PlanSummary['engine']>;
}

export function servingEngine(
  db: Database,
  req: Pick<PlanRequest, 'engine' | 'engineVersion' | 'kvCache' | 'load' | 'engineSettings'>,
  entry: CatalogEntry | null,
  format: WeightFormat,
): ResolvedEngine {
  const name = resolveEngine(req.engine, format);
  if (name === 'ideal') {
    if (req.kvCache === 'fp8')
      throw new UserError(
        "--kv-cache fp8 is priced by an engine's rules; the kernel roofline (--engine ideal) holds the KV cache in the model's dtype: give --engine (vllm, sglang, tensorrt-llm, ...) or leave --kv-cache out",
      );
    return { serving: null, summary: { name, title: 'the kernel roofline (no engine)', since: null } };
  }
  const rules = withSettings(
    engineRules(name, req.engineVersion !== undefined ? { version: req.engineVersion } : {}),
    req.engineSettings,
    req.kvCache ?? 'auto',
  );
  const summary = { name, title: ENGINES[name].title, since: rules.since };
  if (!entry || entry.kind !== 'transformer') return { serving: null, summary };
  const dims = rules.flashAttentionHeadDims;
  const head = headDimOf(entry as TransformerEntry);
  if (pricesFlashAttention(rules) === true && dims && !dims.includes(head))
    throw new UserError(
      `${ENGINES[name].title}'s GPU flash attention has kernels for heads ${dims.join(', ')} wide, not ${head} (this model's): leave engineSettings.flashAttention and --kv-cache fp8 out`,
    );
  const tables = new Map<string, KernelEfficiencies | undefined>();
  const table = (gpu: GpuDatasheet): KernelEfficiencies | undefined => {
    if (!tables.has(gpu.id)) tables.set(gpu.id, transferredTable(db, gpu)?.table);
    return tables.get(gpu.id);
  };
  return {
    serving: {
      rules,
      entry: entry as TransformerEntry,
      format,
      kvCache: req.kvCache ?? 'auto',
      ...(req.load ? { load: req.load } : {}),
      table,
    },
    summary,
  };
}
