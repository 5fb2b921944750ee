/**
 * Parameter counts of the built-in catalog, against the published figures: exact counts of the
 * official implementations (Hugging Face / torchvision num_parameters) and, within 2%, the
 * headline figures of the papers.
 */
import { describe, expect, it } from 'vitest';
import { catalogParams, catalogWorkload, listCatalog } from '../../../../src-main/core/catalog/index.js';
import { CATALOG } from '../../../../src-main/core/catalog/entries.js';

const within = (actual: number, expected: number, tolerance: number): void => {
  expect(Math.abs(actual / expected - 1)).toBeLessThanOrEqual(tolerance);
};

// [name, exact count of the official implementation, headline figure]
const COUNTS: [string, number, number][] = [
  ['gpt2-small', 124_439_808, 124e6], // HF openai-community/gpt2 (tied LM head); the paper's Table 2 said 117M
  ['gpt2-medium', 354_823_168, 355e6],
  ['gpt2-large', 774_030_080, 774e6],
  ['gpt2-xl', 1_557_611_200, 1.56e9],
  ['llama-7b', 6_738_415_616, 6.74e9], // HF meta-llama/Llama-2-7b-hf; LLaMA Table 2: 6.7B
  ['llama-13b', 13_015_864_320, 13.0e9],
  ['llama-3.1-8b', 8_030_261_248, 8.03e9], // HF meta-llama/Llama-3.1-8B (8.03B on its model card)
  ['llama-3.1-70b', 70_553_706_496, 70.6e9],
  ['qwen2.5-7b', 7_615_616_512, 7.61e9], // Qwen2.5 report: 7.61B
  ['qwen2.5-32b', 32_763_876_352, 32.5e9], // Qwen2.5 report: 32.5B
  ['mistral-7b', 7_241_732_096, 7.24e9],
  ['mixtral-8x7b', 46_702_792_704, 46.7e9], // Mixtral paper: 47B total, 13B active
  ['bert-base', 109_482_240, 110e6], // HF bert-base-uncased BertModel (with pooler); Devlin et al.: 110M
  ['bert-large', 335_141_888, 340e6], // Devlin et al.: 340M
  ['resnet50', 25_557_032, 25.6e6], // torchvision ResNet50_Weights.IMAGENET1K_V1 num_params
  ['vit-b16', 86_567_656, 86.6e6], // torchvision ViT_B_16_Weights.IMAGENET1K_V1 num_params
];

describe('catalog parameter counts', () => {
  it('lists the built-in models', () => {
    expect(listCatalog().map((c) => c.name)).toEqual(COUNTS.map(([name]) => name));
  });

  it.each(COUNTS)('%s has the official parameter count', (name, exact, headline) => {
    expect(catalogParams(name)).toBe(exact);
    within(catalogParams(name), headline, 0.02);
    expect(CATALOG.find((e) => e.name === name)?.reportedParams).toBe(exact);
  });

  it('workload params, layer params and node params agree; paramBytes is params x dtype bytes', () => {
    for (const [name, exact] of COUNTS) {
      if (name === 'resnet50') continue;
      const w = catalogWorkload(name, { seq: name.startsWith('vit') ? undefined : 8, dtype: 'fp16' });
      const byNodes = w.nodes.reduce((s, n) => s + n.params, 0);
      const byLayers = w.layers.reduce((s, l) => s + l.params, 0);
      expect(byNodes).toBe(exact);
      expect(byLayers).toBe(exact);
      expect(w.paramBytes).toBe(2 * exact);
    }
  });

  it('ResNet-50 folds BatchNorm for inference: one bias per output channel instead of gamma and beta', () => {
    const training = catalogWorkload('resnet50', { mode: 'training' });
    const inference = catalogWorkload('resnet50');
    const sum = (w: typeof training): number => w.layers.reduce((s, l) => s + l.params, 0);
    expect(sum(training)).toBe(25_557_032);
    // 26,560 BatchNorm channels: stem 64 + per stage blocks*(w + w + 4w) + 4w (shortcut)
    expect(sum(inference)).toBe(25_557_032 - 26_560);
    within(sum(inference), 25.6e6, 0.02);
  });

  it('counts GPT-2 tied weights once, on the embeddings', () => {
    const w = catalogWorkload('gpt2-small', { seq: 4 });
    const head = w.layers.at(-1);
    expect(head?.name).toBe('head');
    expect(head?.params).toBe(2 * 768); // the final LayerNorm only
    const lm = w.nodes.find((n) => n.name === 'head.lm');
    expect(lm?.params).toBe(0);
    expect(lm?.inputs.map((t) => t.name)).toContain('embeddings.token.weight');
    expect(w.warnings.some((m) => m.includes('tied'))).toBe(true);
    // Llama's head is its own matrix
    const llama = catalogWorkload('llama-7b', { seq: 4 });
    expect(llama.nodes.find((n) => n.name === 'head.lm')?.params).toBe(4096 * 32000);
  });
});
