/**
 * Forward FLOPs of catalog workloads against published figures and closed forms.
 * Convention throughout (kernels/cost.ts): one multiply-add = 2 FLOPs. torchvision's "GFLOPS"
 * (and DeiT's / timm's "FLOPs") count multiply-adds, so they are doubled here.
 */
import { describe, expect, it } from 'vitest';
import { catalogWorkload } from '../../../../src-main/core/catalog/index.js';
import type { Workload } from '../../../../src-main/core/workload/types.js';

const total = (w: Workload): number => w.layers.reduce((s, l) => s + l.flops, 0);
const ofFamily = (w: Workload, families: string[]): number =>
  w.nodes.filter((n) => n.family !== null && families.includes(n.family)).reduce((s, n) => s + n.flops, 0);
const within = (actual: number, expected: number, tolerance: number): void => {
  expect(Math.abs(actual / expected - 1)).toBeLessThanOrEqual(tolerance);
};

/**
 * Narayanan et al. 2021 (Megatron-LM, arXiv:2104.04473, Section 5.1): a GPT layer's forward
 * GEMMs are 24*b*s*h^2 FLOPs plus 4*b*s^2*h for the two attention GEMMs; the logit layer
 * 2*b*s*h*V.
 */
const layerGemm = (b: number, s: number, h: number): number => 24 * b * s * h * h;
const attentionGemm = (b: number, s: number, h: number): number => 4 * b * s * s * h;

describe('catalog forward FLOPs', () => {
  it('GPT-2 small at seq 1024: GEMMs exactly as Narayanan et al.; total ~ 2*params*tokens + attention', () => {
    const [b, s, l, h, a, V] = [1, 1024, 12, 768, 12, 50257];
    const w = catalogWorkload('gpt2-small', { batch: b, seq: s });
    expect(ofFamily(w, ['gemm'])).toBe(l * layerGemm(b, s, h) + 2 * b * s * h * V);
    // the Attention kernel: its two GEMMs plus a 5-FLOP softmax per score
    expect(ofFamily(w, ['attention'])).toBe(l * (attentionGemm(b, s, h) + 5 * b * a * s * s));
    const closed = l * (layerGemm(b, s, h) + attentionGemm(b, s, h)) + 2 * b * s * h * V; // 291.6 GFLOPs
    within(total(w), closed, 0.01);
    // Kaplan et al. 2020 style: 2 FLOPs per parameter per token (tied head counted once) + attention
    within(total(w), 2 * 124_439_808 * b * s + l * attentionGemm(b, s, h), 0.02);
    expect(total(w) / 1e9).toBeCloseTo(292.9, 1);
  });

  it('Llama 7B at seq 2048: SwiGLU GEMMs 2*T*(4h^2 + 3hf) per layer plus the untied head', () => {
    const [b, s, l, h, f, V] = [1, 2048, 32, 4096, 11008, 32000];
    const w = catalogWorkload('llama-7b', { seq: s });
    const T = b * s;
    expect(ofFamily(w, ['gemm'])).toBe(l * 2 * T * (4 * h * h + 3 * h * f) + 2 * T * h * V);
    const nonEmbedding = 6_738_415_616 - h * V; // the input embedding is a lookup, not a GEMM
    within(total(w), 2 * nonEmbedding * T + l * attentionGemm(b, s, h), 0.01);
  });

  it('BERT base at seq 128: 24*b*s*l*h^2*(1 + s/6h) plus the pooler, ~22.4 GFLOPs', () => {
    const [b, s, l, h] = [1, 128, 12, 768];
    const w = catalogWorkload('bert-base', { seq: s });
    const closed = l * (layerGemm(b, s, h) + attentionGemm(b, s, h)) + 2 * b * h * h; // 22.35 GFLOPs
    within(total(w), closed, 0.01);
    expect(total(w) / 1e9).toBeCloseTo(22.42, 1);
    // batch scales linearly
    within(total(catalogWorkload('bert-base', { seq: s, batch: 8 })), 8 * total(w), 1e-12);
  });

  it('ResNet-50 at 224x224: 4.09 GMACs (torchvision) = 8.18 GFLOPs', () => {
    const w = catalogWorkload('resnet50');
    within(ofFamily(w, ['conv', 'gemm']), 2 * 4.09e9, 0.005);
    within(total(w), 2 * 4.1e9, 0.01); // + ReLU, adds, pooling
    // BatchNorm (training) adds elementwise work, not MACs
    const t = catalogWorkload('resnet50', { mode: 'training' });
    expect(ofFamily(t, ['conv', 'gemm'])).toBe(ofFamily(w, ['conv', 'gemm']));
    expect(total(t)).toBeGreaterThan(total(w));
  });

  it('ViT-B/16 at 224x224: 17.56 GMACs (torchvision; "17.6 GFLOPs" in DeiT) = 35.1 GFLOPs, 197 tokens', () => {
    const w = catalogWorkload('vit-b16');
    expect(w.bindings).toEqual({ batch: 1, image: 224, seq: 197 });
    const attn = w.nodes.find((n) => n.opType === 'Attention');
    expect(attn?.kernel?.shape).toEqual({ batch: 1, heads: 12, seq: 197, headDim: 64 });
    within(total(w), 2 * 17.56e9, 0.01);
    // exact GEMM part: patch embedding, 12 blocks, classifier
    const [s, h, l] = [197, 768, 12];
    expect(ofFamily(w, ['gemm'])).toBe(2 * 196 * h * (3 * 16 * 16) + l * layerGemm(1, s, h) + 2 * h * 1000);
  });

  it('backward is 2x forward, per layer', () => {
    for (const name of ['gpt2-small', 'llama-7b', 'bert-base', 'resnet50', 'vit-b16']) {
      const w = catalogWorkload(name, name === 'resnet50' || name === 'vit-b16' ? {} : { seq: 64 });
      for (const l of w.layers) expect(l.backwardFlops).toBe(2 * l.flops);
    }
  });
});
