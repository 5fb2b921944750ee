/** Layers, nodes, kernels, cut sizes, training memory and parameter checking of catalog workloads. */
import { describe, expect, it } from 'vitest';
import {
  catalogWorkload,
  getCatalogEntry,
  listCatalog,
  type CatalogWorkload,
} from '../../../../src-main/core/catalog/index.js';
import { transformerLayerActivationBytes } from '../../../../src-main/core/catalog/activation-memory.js';
import { CATALOG } from '../../../../src-main/core/catalog/entries.js';
import { parseModelFile } from '../../../../src-main/core/catalog/schema.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import { KERNEL_OPS, type KernelOp } from '../../../../src-main/core/kernels/types.js';
import { UserError } from '../../../../src-main/core/errors.js';
import { entryWorkload } from '../../../../src-main/core/catalog/index.js';
import { ggufDecoder } from '../../../../src-main/core/catalog/gguf-architecture.js';

const small = (name: string): CatalogWorkload =>
  catalogWorkload(name, name === 'resnet50' || name === 'vit-b16' ? {} : { seq: 32, batch: 2 });

describe('catalog workload structure', () => {
  it('has one layer per block plus embeddings (or stem) and head', () => {
    const blocks: Record<string, number> = {
      'gpt2-small': 12,
      'gpt2-medium': 24,
      'gpt2-large': 36,
      'gpt2-xl': 48,
      'llama-7b': 32,
      'llama-13b': 40,
      'bert-base': 12,
      'bert-large': 24,
      resnet50: 16,
      'vit-b16': 12,
    };
    for (const [name, n] of Object.entries(blocks)) {
      const w = small(name);
      expect(w.source).toBe('catalog');
      expect(w.name).toBe(name);
      expect(w.layers).toHaveLength(n + 2);
      expect(w.layers[0]?.name).toBe(name === 'resnet50' ? 'stem' : 'embeddings');
      expect(w.layers.at(-1)?.name).toBe('head');
      expect(listCatalog().find((c) => c.name === name)?.blocks).toBe(n);
    }
    expect(
      small('resnet50')
        .layers.map((l) => l.name)
        .slice(1, 5),
    ).toEqual(['layer1.0', 'layer1.1', 'layer1.2', 'layer2.0']);
  });

  it('gives every node a kernel that makeKernel accepts, with the kernel FLOPs and bytes', () => {
    for (const dtype of ['fp32', 'fp16', 'bf16'] as const) {
      for (const e of CATALOG) {
        if (e.name === 'resnet50' && dtype === 'bf16') continue;
        const w = catalogWorkload(e.name, {
          ...(e.kind === 'transformer' && e.input === 'tokens' ? { seq: 16 } : {}),
          dtype,
        });
        const names = new Set<string>();
        for (const n of w.nodes) {
          expect(n.kernel).not.toBeNull();
          if (!n.kernel) continue;
          expect(KERNEL_OPS).toContain(n.kernel.op);
          const k = makeKernel(n.kernel.op as KernelOp, n.dtype, n.kernel.shape);
          expect(n.family).toBe(k.family);
          expect(n.flops).toBe(k.flops);
          expect(n.bytes).toBe(k.bytes);
          expect(n.dtype).toBe(dtype);
          expect(n.outputs).toHaveLength(1);
          names.add(n.name);
        }
        expect(names.size).toBe(w.nodes.length);
      }
    }
  });

  it('decomposes a GPT-2 block into its kernels', () => {
    const w = catalogWorkload('gpt2-small', { seq: 128, batch: 2 });
    const block = w.layers[1];
    const ops = block?.nodes.map((i) => `${w.nodes[i]?.opType}:${w.nodes[i]?.kernel?.op}`);
    expect(ops).toEqual([
      'LayerNormalization:LayerNormalization',
      'Gemm:Gemm',
      'Attention:Attention',
      'Gemm:Gemm',
      'Add:Add',
      'LayerNormalization:LayerNormalization',
      'Gemm:Gemm',
      'Gelu:Gelu',
      'Gemm:Gemm',
      'Add:Add',
    ]);
    const qkv = w.nodes.find((n) => n.name === 'block.0.attn.qkv');
    expect(qkv?.kernel?.shape).toEqual({ M: 256, N: 2304, K: 768 });
    expect(qkv?.params).toBe(768 * 2304 + 2304);
    const emb = w.nodes.find((n) => n.name === 'embeddings.token');
    expect(emb?.family).toBe('datamove');
    expect(emb?.opType).toBe('Gather');
  });

  it('decomposes a Llama block: RMSNorm, RoPE, attention, SwiGLU, no biases', () => {
    const w = catalogWorkload('llama-7b', { seq: 64 });
    const block = w.layers[1];
    expect(block?.nodes.map((i) => w.nodes[i]?.opType)).toEqual([
      'RMSNormalization',
      'MatMul',
      'RotaryEmbedding',
      'Attention',
      'MatMul',
      'Add',
      'RMSNormalization',
      'MatMul',
      'MatMul',
      'Sigmoid',
      'Mul',
      'Mul',
      'MatMul',
      'Add',
    ]);
    expect(block?.params).toBe(4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096);
    expect(w.nodes.find((n) => n.name === 'block.0.mlp.gate')?.kernel?.shape).toEqual({
      B: 1,
      M: 64,
      N: 11008,
      K: 4096,
    });
  });

  it('BERT is post-norm; ViT embeds patches with a GEMM; ResNet blocks hold convolutions', () => {
    const bert = catalogWorkload('bert-base', { seq: 16 });
    const last = bert.layers[1]?.nodes.at(-1) as number;
    expect(bert.nodes[last]?.opType).toBe('LayerNormalization');
    const vit = catalogWorkload('vit-b16');
    const patch = vit.nodes.find((n) => n.name === 'embeddings.patch');
    expect(patch?.opType).toBe('Conv');
    expect(patch?.kernel).toEqual({ op: 'Gemm', shape: { M: 196, N: 768, K: 768 } });
    const rn = catalogWorkload('resnet50');
    const first = rn.layers.find((l) => l.name === 'layer1.0');
    expect(first?.nodes.map((i) => rn.nodes[i]?.opType)).toEqual([
      'Conv',
      'Relu',
      'Conv',
      'Relu',
      'Conv',
      'Conv',
      'Add',
      'Relu',
    ]);
    const stride = rn.nodes.find((n) => n.name === 'layer2.0.conv2');
    expect(stride?.kernel?.shape).toMatchObject({ H: 56, K: 128, R: 3, stride: 2 });
    const trained = catalogWorkload('resnet50', { mode: 'training' });
    expect(trained.nodes.filter((n) => n.opType === 'BatchNormalization')).toHaveLength(53);
    expect(trained.nodes.find((n) => n.name === 'layer1.0.bn1')?.family).toBe('layernorm');
  });

  it('sums layers from their nodes; outBytes of a transformer block is b*s*h*dtype bytes', () => {
    for (const [name, h, bytes] of [
      ['gpt2-small', 768, 4],
      ['llama-13b', 5120, 2],
      ['bert-large', 1024, 2],
    ] as const) {
      const [b, s] = [3, 100];
      const w = catalogWorkload(name, { batch: b, seq: s, dtype: bytes === 2 ? 'fp16' : 'fp32' });
      for (const l of w.layers) {
        const nodes = l.nodes.map((i) => w.nodes[i]);
        expect(l.flops).toBe(nodes.reduce((a, n) => a + (n?.flops ?? 0), 0));
        expect(l.bytes).toBe(nodes.reduce((a, n) => a + (n?.bytes ?? 0), 0));
        expect(l.activationBytes).toBe(nodes.reduce((a, n) => a + (n?.activationBytes ?? 0), 0));
        expect(l.outTensors).toHaveLength(1);
        if (l.name !== 'head') expect(l.outBytes).toBe(b * s * h * bytes);
      }
      expect(w.layers.map((l) => l.index)).toEqual(w.layers.map((_, i) => i));
      expect(w.layers.flatMap((l) => l.nodes)).toEqual(w.nodes.map((_, i) => i));
    }
    // the LM head's output is the logits
    const gpt = catalogWorkload('gpt2-small', { seq: 10 });
    expect(gpt.layers.at(-1)?.outBytes).toBe(10 * 50257 * 4);
    // a ResNet cut carries the block's feature map
    const rn = catalogWorkload('resnet50', { batch: 2, dtype: 'fp16' });
    expect(rn.layers.find((l) => l.name === 'layer3.5')?.outBytes).toBe(2 * 1024 * 14 * 14 * 2);
  });

  it('gives training activation memory per block after Korthikanti et al. 2022', () => {
    // The paper's closed form, sbh(34 + 5as/h) bytes: 16-bit activations, 4h GELU MLP, dropout.
    const korthikantiLayerBytes = (s: number, b: number, h: number, a: number): number =>
      34 * s * b * h + 5 * a * s * s * b;
    // GPT-2 small, fp16: s*b*h*(34 + 5*a*s/h) bytes per block
    const [b, s, h, a] = [4, 1024, 768, 12];
    const w = catalogWorkload('gpt2-small', { batch: b, seq: s, dtype: 'fp16', mode: 'training' });
    const expected = s * b * h * (34 + (5 * a * s) / h);
    expect(korthikantiLayerBytes(s, b, h, a)).toBe(expected);
    for (const l of w.layers.slice(1, -1)) expect(l.trainingActivationBytes).toBe(expected);
    // BERT large, fp16: the same closed form (4h GELU MLP with dropout)
    const bert = catalogWorkload('bert-large', { batch: 2, seq: 512, dtype: 'bf16' });
    expect(bert.layers[1]?.trainingActivationBytes).toBe(korthikantiLayerBytes(512, 2, 1024, 16));
    // Llama (SwiGLU f = 11008, no dropout): 16sbh + 8sbf + 2as^2b at 2 bytes
    const llama = catalogWorkload('llama-7b', { seq: 2048, dtype: 'fp16' });
    const [ls, lh, lf, la] = [2048, 4096, 11008, 32];
    expect(llama.layers[1]?.trainingActivationBytes).toBe(16 * ls * lh + 8 * ls * lf + 2 * la * ls * ls);
    // fp32 doubles every stored tensor but not the 1-byte dropout masks
    expect(
      transformerLayerActivationBytes({
        seq: s,
        batch: b,
        hidden: h,
        heads: a,
        ffn: 4 * h,
        elementBytes: 4,
        mlp: 'gelu',
        dropout: true,
      }),
    ).toBe(66 * s * b * h + 9 * a * s * s * b);
    // other layers keep their node outputs
    const rn = catalogWorkload('resnet50', { mode: 'training' });
    for (const l of rn.layers) expect(l.trainingActivationBytes).toBe(l.activationBytes);
  });

  it('adds the loss in training mode', () => {
    const w = catalogWorkload('gpt2-small', { seq: 8, mode: 'training' });
    const loss = w.nodes.at(-1);
    expect(loss?.opType).toBe('SoftmaxCrossEntropyLoss');
    expect(loss?.kernel).toEqual({ op: 'Softmax', shape: { rows: 8, cols: 50257 } });
    expect(catalogWorkload('gpt2-small', { seq: 8 }).nodes.at(-1)?.name).toBe('head.lm');
  });
});

describe('catalog parameters and errors', () => {
  it('uses the entry defaults', () => {
    expect(catalogWorkload('gpt2-small').bindings).toEqual({ batch: 1, seq: 1024 });
    expect(catalogWorkload('bert-base').bindings).toEqual({ batch: 1, seq: 128 });
    expect(catalogWorkload('resnet50').bindings).toEqual({ batch: 1, image: 224 });
    expect(catalogWorkload('llama-7b', { seq: 8 }).nodes[0]?.dtype).toBe('fp16');
    expect(catalogWorkload('gpt2-small', { seq: 8 }).nodes[0]?.dtype).toBe('fp32');
  });

  it('names the known models for an unknown name', () => {
    expect(() => catalogWorkload('gpt3')).toThrow(UserError);
    expect(() => getCatalogEntry('gpt3')).toThrow(/unknown model "gpt3".*gpt2-small.*vit-b16/);
  });

  it('rejects a seq beyond a learned position table, warns beyond a rotary context', () => {
    expect(() => catalogWorkload('gpt2-small', { seq: 1025 })).toThrow(/at most 1024, got 1025/);
    expect(() => catalogWorkload('bert-base', { seq: 513 })).toThrow(UserError);
    expect(catalogWorkload('bert-base', { seq: 512 }).bindings.seq).toBe(512);
    const long = catalogWorkload('llama-7b', { seq: 8192 });
    expect(long.warnings.some((m) => m.includes('8192') && m.includes('4096'))).toBe(true);
    expect(catalogWorkload('llama-7b', { seq: 4096 }).warnings).toEqual([]);
  });

  it('rejects bad numbers, dtypes, modes and the wrong size parameter', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => catalogWorkload('gpt2-small', { batch: bad })).toThrow(/batch must be a whole number/);
      expect(() => catalogWorkload('gpt2-small', { seq: bad })).toThrow(UserError);
    }
    expect(() => catalogWorkload('gpt2-small', { dtype: 'int8' })).toThrow(/dtype must be one of fp32, fp16, bf16/);
    expect(() => catalogWorkload('gpt2-small', { mode: 'serve' as 'training' })).toThrow(/mode must be/);
    expect(() => catalogWorkload('gpt2-small', { image: 224 })).toThrow(/give seq/);
    expect(() => catalogWorkload('resnet50', { seq: 128 })).toThrow(/give image/);
    expect(() => catalogWorkload('vit-b16', { seq: 197 })).toThrow(/give image/);
    expect(() => catalogWorkload('vit-b16', { image: 200 })).toThrow(/multiple of the 16-pixel patch/);
    expect(() => catalogWorkload('resnet50', { image: 16 })).toThrow(/at least 32/);
    expect(() => catalogWorkload('resnet50', { dtype: 'bf16' })).toThrow(/not bf16/);
  });

  it('refuses in one line a workload whose tensors hold more elements than counts keep exact', () => {
    const widest = ggufDecoder(
      {
        'general.architecture': 'llama',
        'llama.block_count': 1,
        'llama.context_length': 1 << 20,
        'llama.embedding_length': 131_072,
        'llama.feed_forward_length': 1 << 20,
        'llama.attention.head_count': 128,
        'llama.vocab_size': 4096,
      },
      null,
      'm.gguf',
      'widest',
    ).entry;
    let message = '';
    try {
      entryWorkload(widest, { batch: 1 << 16, seq: 1 << 20 });
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      message = (e as Error).message;
    }
    expect(message).toMatch(
      /^widest: \S+ has \d+ elements, over 9007199254740991 \(2\^53 - 1\); use a smaller batch or seq$/,
    );
    expect(entryWorkload(widest, { batch: 1, seq: 8 }).nodes.length).toBeGreaterThan(0);
  });

  it('interpolates ViT positions for another image size, with a warning', () => {
    const w = catalogWorkload('vit-b16', { image: 384 });
    expect(w.bindings.seq).toBe(24 * 24 + 1);
    expect(w.warnings.some((m) => m.includes('interpolated'))).toBe(true);
    expect(w.layers.reduce((s, l) => s + l.params, 0)).toBe(86_567_656);
  });

  it('validates model files', () => {
    const { name: _name, family: _family, sources: _sources, ...common } = getCatalogEntry('gpt2-small');
    const file = { family: 'Test', sources: ['a paper'], common, models: [{ name: 'tiny', heads: 5 }] };
    expect(() => parseModelFile(file, 'models/test.json')).toThrow(
      /models\/test.json models\[0\].*hidden must divide by heads/,
    );
    expect(() => parseModelFile({ ...file, models: [{ name: 'tiny', layers: 0 }] }, 'x.json')).toThrow(
      /x.json models\[0\]\.layers/,
    );
    expect(() => parseModelFile({ ...file, models: [{ name: 'tiny', extra: 1 }] }, 'x.json')).toThrow(/extra/);
    expect(() => parseModelFile({ ...file, models: [{ name: 'tiny', layers: 1_000_000_000 }] }, 'x.json')).toThrow(
      /x.json models\[0\]\.layers: .*256/,
    );
    expect(() => parseModelFile({ ...file, models: [{ name: 'tiny', ffn: 2 ** 50 }] }, 'x.json')).toThrow(
      /x.json models\[0\]\.ffn: .*1048576/,
    );
    expect(() => parseModelFile({ ...file, sources: [] }, 'x.json')).toThrow(/x.json/);
    const ok = parseModelFile({ ...file, models: [{ name: 'tiny', layers: 2, hidden: 64, heads: 4, ffn: 256 }] }, 'x');
    expect(ok[0]).toMatchObject({ name: 'tiny', family: 'Test', sources: ['a paper'], layers: 2 });
  });

  it('describes every entry with citations and a config file', () => {
    for (const c of listCatalog()) {
      expect(c.sources.length).toBeGreaterThan(0);
      expect(c.config.length).toBeGreaterThan(0);
      expect(c.params).toBeGreaterThan(0);
    }
    expect(listCatalog().find((c) => c.name === 'gpt2-xl')).toMatchObject({ input: 'tokens', context: 1024 });
    expect(listCatalog().find((c) => c.name === 'resnet50')).toMatchObject({ input: 'image', kind: 'resnet' });
  });
});
