/**
 * LoRA and QLoRA adapters on a catalog transformer: the trained parameters PEFT reports, the frozen
 * bytes in bf16 or NF4, the backward of frozen GEMMs, and the targets a model lacks.
 */
import { describe, expect, it } from 'vitest';
import {
  entryWorkload,
  getCatalogEntry,
  type CatalogLayer,
  type TransformerEntry,
} from '../../../../src-main/core/catalog/index.js';
import { hfConfigDecoder } from '../../../../src-main/core/catalog/hf-config.js';
import { availableTargets } from '../../../../src-main/core/catalog/lora.js';
import { finetuneSpec, NF4_BYTES_PER_PARAM, parseLoraTargets } from '../../../../src-main/core/workload/finetune.js';
import { LLAMA_31_8B } from '../../../helpers/hf-configs.js';

const described = hfConfigDecoder(LLAMA_31_8B, 'config.json', 'Llama-3.1-8B').entry;
const llama = described as TransformerEntry;

function tuned(
  adapter: 'lora' | 'qlora',
  extra: { rank?: number; targets?: ('q' | 'v')[]; stack?: 'peft' | 'torchtune' } = {},
) {
  const spec = finetuneSpec({ adapter, ...extra }, availableTargets(llama));
  const w = entryWorkload(described, { seq: 2048, batch: 1, mode: 'training', finetune: spec });
  const layers = w.layers as CatalogLayer[];
  const sum = (f: (l: CatalogLayer) => number): number => layers.reduce((s, l) => s + f(l), 0);
  return {
    w,
    adapterParams: sum((l) => l.finetune?.adapterParams ?? 0),
    frozenParams: sum((l) => l.finetune?.frozenParams ?? 0),
    frozenBytes: sum((l) => l.finetune?.frozenBytes ?? 0),
  };
}

describe('LoRA adapters', () => {
  it("trains PEFT's count for Llama 3.1 8B at rank 16 on all linear layers: 41,943,040", () => {
    const t = tuned('lora');
    // PEFT's print_trainable_parameters for Llama 3 8B, r=16, q,k,v,o,gate,up,down.
    expect(t.adapterParams).toBe(41_943_040);
    expect(t.frozenParams).toBe(8_030_261_248);
    expect(t.frozenBytes).toBe(2 * 8_030_261_248);
    // q and v only at rank 8: 32 layers x 8 x ((4096 + 4096) + (4096 + 1024)).
    expect(tuned('lora', { rank: 8, targets: ['q', 'v'] }).adapterParams).toBe(32 * 8 * (8192 + 5120));
  });

  it('stores the blocks linear weights in NF4 under QLoRA, the rest in bf16, or fp32 where PEFT upcasts it', () => {
    const t = tuned('qlora');
    const embeddingsAndHead = 2 * 128_256 * 4096;
    const norms = 32 * 2 * 4096 + 4096;
    const linear = 8_030_261_248 - embeddingsAndHead - norms;
    // PEFT's prepare_model_for_kbit_training upcasts what bitsandbytes leaves unquantised to fp32.
    expect(t.frozenBytes).toBeCloseTo(linear * NF4_BYTES_PER_PARAM + (embeddingsAndHead + norms) * 4, 0);
    const torchtune = tuned('qlora', { stack: 'torchtune' });
    expect(torchtune.frozenBytes).toBeCloseTo(linear * NF4_BYTES_PER_PARAM + (embeddingsAndHead + norms) * 2, 0);
    // One dequantisation before each frozen GEMM of a block: qkv, out, gate, up and down.
    expect(t.w.nodes.filter((n) => n.finetune === 'dequant')).toHaveLength(32 * 5);
  });

  it("counts a frozen GEMM's backward once (input gradient) and an adapter's twice", () => {
    const t = tuned('lora');
    const block = (t.w.layers as CatalogLayer[]).find((l) => l.name === 'block.3') as CatalogLayer;
    const nodes = block.nodes.map((i) => t.w.nodes[i]!);
    const frozen = nodes.filter((n) => n.finetune === 'frozen').reduce((s, n) => s + n.flops, 0);
    expect(frozen).toBeGreaterThan(0);
    expect(block.backwardFlops).toBe(2 * block.flops - frozen);
    expect(nodes.filter((n) => n.finetune === 'adapter')).toHaveLength(2 * 7);
  });

  it('refuses a target the architecture lacks, and an unknown target name, in one line', () => {
    const gpt2Entry = getCatalogEntry('gpt2-small');
    const gpt2 = gpt2Entry as TransformerEntry;
    expect(availableTargets(gpt2)).toEqual(['q', 'k', 'v', 'o', 'up', 'down']);
    const spec = finetuneSpec({ adapter: 'lora', targets: ['gate'] }, availableTargets(gpt2));
    expect(() => entryWorkload(gpt2Entry, { mode: 'training', finetune: spec })).toThrow(
      /^--targets gate: GPT-2 small \(124M\) has no gate projection \(its LoRA targets: q,k,v,o,up,down\)$/,
    );
    expect(() => parseLoraTargets('q,lm_head')).toThrow(/"lm_head" is not a LoRA target here/);
    expect(parseLoraTargets('q_proj,V_PROJ')).toEqual(['q', 'v']);
    expect(parseLoraTargets('all-linear')).toBeUndefined();
    expect(() => finetuneSpec({ adapter: 'lora', rank: 0 }, ['q'])).toThrow(
      /--rank must be a whole number from 1 to 1024/,
    );
  });

  it('refuses adapters on a convolutional network', () => {
    const spec = finetuneSpec({ adapter: 'lora' }, ['q']);
    expect(() => entryWorkload(getCatalogEntry('resnet50'), { mode: 'training', finetune: spec })).toThrow(
      /LoRA and QLoRA adapters are planned for transformers/,
    );
  });
});
