/**
 * The graphs ONNX Runtime executes (CPU EP, graphOptimizationLevel 'all', written with
 * optimizedModelFilePath): NCHWc convs and their reorders, FusedConv, Gemm and FusedGemm,
 * Gelu, SkipLayerNormalization, LayerNormalization. Every executed tensor's shape is inferred
 * and agrees with what ORT computes when it runs the executed graph, every node is costed
 * (never a fallback), each conv keeps the FLOPs of the user's conv it came from, and every
 * user node is mapped. The assertions hold on any CPU: NCHWc block 16 (AVX-512), 8 (AVX2), or
 * no NCHWc at all; blocks the machine lacks are checked on graphs built by hand.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';
import { attr, encodeModel, type NodeDef, type TensorDef } from '../../../../src-main/core/onnx/model-builder.js';
import { parseOnnxModel, type OnnxModel } from '../../../../src-main/core/onnx/onnx-parser.js';
import { ProtoWriter } from '../../../../src-main/core/onnx/protobuf-writer.js';
import { mapExecutedNodes, nchwcChannelHints } from '../../../../src-main/core/workload/executed-graph.js';
import { importOnnxModel } from '../../../../src-main/core/workload/from-onnx.js';
import { nodeCost, type NodeCost } from '../../../../src-main/core/workload/node-cost.js';
import { NCHWC_DOMAIN } from '../../../../src-main/core/workload/shape-inference-nchwc.js';
import { inferShapes, type ShapeResult } from '../../../../src-main/core/workload/shape-inference.js';
import { F, floats, input, ints, node, transformerModel, weight } from './sample-models.js';

const dir = mkdtempSync(join(tmpdir(), 'executed-graph-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;

/** The true channel count of a blocked (NCHWc) tensor; undefined for tensors in a plain layout. */
const blockedChannels = (t: object | undefined): number | undefined =>
  t && 'channels' in t && typeof t.channels === 'number' ? t.channels : undefined;

/** The graph ORT executes for `bytes` on the CPU EP, as ORT writes it. */
async function optimize(bytes: Uint8Array): Promise<Uint8Array> {
  const out = join(dir, `opt-${files++}.onnx`);
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    optimizedModelFilePath: out,
    logSeverityLevel: 3,
  });
  await session.release();
  return new Uint8Array(readFileSync(out));
}

/** Deterministic feeds: floats in [-0.5, 0.5), integers 1. */
function feeds(session: ort.InferenceSession, inputs: Record<string, number[]>): Record<string, ort.Tensor> {
  const out: Record<string, ort.Tensor> = {};
  session.inputMetadata.forEach((meta) => {
    const dims = inputs[meta.name];
    if (!dims) throw new Error(`no shape for input ${meta.name}`);
    const n = dims.reduce((a, d) => a * d, 1);
    const type = meta.isTensor ? meta.type : 'float32';
    out[meta.name] =
      type === 'int64'
        ? new ort.Tensor('int64', new BigInt64Array(n).fill(1n), dims)
        : new ort.Tensor(
            'float32',
            Float32Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 1000 - 0.5),
            dims,
          );
  });
  return out;
}

/** Runs `bytes` unoptimized and returns the dims of its outputs, by name. */
async function runShapes(bytes: Uint8Array, inputs: Record<string, number[]>): Promise<Map<string, number[]>> {
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    graphOptimizationLevel: 'disabled',
    logSeverityLevel: 3,
  });
  try {
    const out = await session.run(feeds(session, inputs));
    return new Map(Object.entries(out).map(([name, t]) => [name, [...t.dims]]));
  } finally {
    await session.release();
  }
}

/**
 * `bytes` with `names` added as graph outputs (float, shape left to ORT): a second GraphProto
 * appended to the ModelProto, which protobuf merges into the first.
 */
function withOutputs(bytes: Uint8Array, names: readonly string[]): Uint8Array {
  const graph = new ProtoWriter();
  for (const name of names) {
    const type = new ProtoWriter().message(1, new ProtoWriter().varint(1, F)); // tensor_type { elem_type }
    graph.message(12, new ProtoWriter().string(1, name).message(2, type)); // output { name, type }
  }
  const extra = new ProtoWriter().message(7, graph).finish(); // ModelProto.graph
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes);
  out.set(extra, bytes.length);
  return out;
}

interface Case {
  source: OnnxModel;
  executed: OnnxModel;
  /** Executed graph's shapes, with the true NCHWc channel counts the user's graph gives. */
  shapes: ShapeResult;
  costs: NodeCost[];
  /** Costs from the executed graph alone (no channel counts from the user's graph). */
  bareCosts: NodeCost[];
  sourceCosts: NodeCost[];
  map: ReturnType<typeof mapExecutedNodes>;
  /** ORT's dims of every float tensor of the executed graph, and of the user graph's outputs. */
  ortExecuted: Map<string, number[]>;
  ortOutputs: Map<string, number[]>;
}

function costsOf(model: OnnxModel, shapes: ShapeResult): NodeCost[] {
  return model.graph.nodes.map((n) =>
    nodeCost(
      n,
      model.opset,
      n.inputs.map((t) => shapes.tensors.get(t)),
      n.outputs.map((t) => shapes.tensors.get(t)),
    ),
  );
}

async function prepare(bytes: Uint8Array, inputs: Record<string, number[]>): Promise<Case> {
  const source = parseOnnxModel(bytes);
  const optimized = await optimize(bytes);
  const executed = parseOnnxModel(optimized);
  const map = mapExecutedNodes(source, executed);
  const shapes = inferShapes(executed, { inputs, nchwcChannels: nchwcChannelHints(source, executed, map) });
  const graphOutputs = new Set(executed.graph.outputs.map((o) => o.name));
  const floatsOut = executed.graph.nodes
    .flatMap((n) => n.outputs)
    .filter((t) => t && !graphOutputs.has(t) && shapes.tensors.get(t)?.dtype === F);
  return {
    source,
    executed,
    shapes,
    costs: costsOf(executed, shapes),
    bareCosts: costsOf(executed, inferShapes(executed, { inputs })),
    sourceCosts: importOnnxModel(source, { name: 'source', inputs }).costs,
    map,
    ortExecuted: await runShapes(withOutputs(optimized, floatsOut), inputs),
    ortOutputs: await runShapes(bytes, inputs),
  };
}

/** The checks every case passes. */
function checkCase(c: Case): void {
  const { executed, source, shapes, costs, sourceCosts, map } = c;
  const label = (i: number): string => `${executed.graph.nodes[i]?.opType} ${executed.graph.nodes[i]?.name}`;

  // Every executed tensor's shape is inferred, and is what ORT computes.
  expect(shapes.warnings).toEqual([]);
  expect([...shapes.unknownNodes].map(label)).toEqual([]);
  const wrong = [...c.ortExecuted]
    .filter(([name, dims]) => shapes.tensors.get(name)?.dims?.join(',') !== dims.join(','))
    .map(([name, dims]) => `${name}: ours [${shapes.tensors.get(name)?.dims}], ORT [${dims}]`);
  expect(wrong).toEqual([]);
  expect(c.ortExecuted.size).toBeGreaterThan(executed.graph.nodes.length / 3);
  for (const [name, dims] of c.ortOutputs) expect(shapes.tensors.get(name)?.dims).toEqual(dims);

  // Every node is costed: by a kernel, or free (reshapes); never a fallback.
  expect(costs.flatMap((k, i) => (k.kind === 'fallback' ? [`${label(i)}: ${k.reason}`] : []))).toEqual([]);

  // Each conv costs what it runs: the one user conv it came from, its channels padded up to
  // the block (zeros included), so exactly the user's FLOPs where they are multiples of it.
  const block = shapes.nchwcBlock ?? 1;
  costs.forEach((k, i) => {
    if (k.family !== 'conv') return;
    const convs = (map.executedToSource[i] ?? []).filter((s) => sourceCosts[s]?.family === 'conv');
    expect(convs, label(i)).toHaveLength(1);
    const user = sourceCosts[convs[0] ?? -1];
    const [C, K] = [user?.kernel?.shape.C ?? 0, user?.kernel?.shape.K ?? 0];
    expect(k.flops, label(i)).toBeGreaterThanOrEqual(user?.flops ?? Infinity);
    if (C % block === 0 && K % block === 0) expect(k.flops, label(i)).toBe(user?.flops);
    expect(k.kernel?.op).toBe('Conv');
    const n = executed.graph.nodes[i];
    if (n?.domain === NCHWC_DOMAIN) {
      expect(k.kernel?.shape.nchwc).toBe(1);
      expect(k.kernel?.shape.K, label(i)).toBe(Math.ceil(K / block) * block);
    } else expect(k.flops, label(i)).toBe(user?.flops);
    if (n?.attributes.has('activation')) expect(k.kernel?.shape.act).toBe(1);
  });

  // The executed graph alone costs every node, convs alike with or without the user's channel hints.
  c.bareCosts.forEach((k, i) => {
    expect(k.kind, label(i)).not.toBe('fallback');
    if (k.family === 'conv') expect(k.flops, label(i)).toBe(costs[i]?.flops);
  });

  // The map: every executed node goes to user nodes; every user node is covered or fused away,
  // and every user node doing work at run time is covered.
  expect(map.executedToSource).toHaveLength(executed.graph.nodes.length);
  expect(map.executedToSource.flatMap((l, i) => (l.length === 0 ? [label(i)] : []))).toEqual([]);
  expect(map.sourceToExecuted).toHaveLength(source.graph.nodes.length);
  const away = new Set(map.fusedAway);
  map.sourceToExecuted.forEach((l, s) => expect(l.length > 0 || away.has(s)).toBe(true));
  for (const s of map.fusedAway) expect(map.sourceToExecuted[s]).toEqual([]);
  const lost = source.graph.nodes.filter((n, s) => sourceCosts[s]?.kind === 'kernel' && away.has(s));
  expect(lost.map((n) => `${n.opType} ${n.name}`)).toEqual([]);
  map.executedToSource.forEach((l, i) => {
    for (const s of l) expect(map.sourceToExecuted[s]).toContain(i);
  });
}

const pads1 = attr.ints('pads', [1, 1, 1, 1]);

function batchNorm(p: string, c: number): TensorDef[] {
  return [
    floats(
      `${p}.scale`,
      Array.from({ length: c }, (_, i) => 1 + i / 100),
    ),
    floats(
      `${p}.bias`,
      Array.from({ length: c }, (_, i) => 0.1 + i / 50),
    ),
    floats(`${p}.mean`, new Array<number>(c).fill(0.1)),
    floats(`${p}.var`, new Array<number>(c).fill(1)),
  ];
}

/**
 * Conv(3->32)+Relu, Conv(32->64)+BN+Relu, MaxPool, Conv(64->24, stride 2), Sigmoid, a
 * depthwise Conv(24) whose output is added to the 24-channel one, Conv(24->40, 1x1)+Relu,
 * GlobalAveragePool, Flatten, Gemm. 24 and 40 channels pad to either block.
 */
function convChainModel(): Uint8Array {
  return encodeModel({
    graph: {
      name: 'conv-chain',
      inputs: [input('x', [1, 3, 32, 32])],
      outputs: [input('y', [1, 10])],
      initializers: [
        weight('c1.w', [32, 3, 3, 3]),
        weight('c1.b', [32]),
        weight('c2.w', [64, 32, 3, 3], 2),
        ...batchNorm('bn2', 64),
        weight('c3.w', [24, 64, 3, 3], 3),
        weight('c3.b', [24]),
        weight('c4.w', [24, 1, 3, 3], 4),
        weight('c5.w', [40, 24, 1, 1], 5),
        weight('c5.b', [40]),
        weight('fc.w', [10, 40], 6),
        weight('fc.b', [10]),
      ],
      nodes: [
        node('Conv', ['x', 'c1.w', 'c1.b'], ['c1'], [pads1]),
        node('Relu', ['c1'], ['r1']),
        node('Conv', ['r1', 'c2.w'], ['c2'], [pads1]),
        node('BatchNormalization', ['c2', 'bn2.scale', 'bn2.bias', 'bn2.mean', 'bn2.var'], ['b2']),
        node('Relu', ['b2'], ['r2']),
        node('MaxPool', ['r2'], ['p2'], [attr.ints('kernel_shape', [2, 2]), attr.ints('strides', [2, 2])]),
        node('Conv', ['p2', 'c3.w', 'c3.b'], ['c3'], [pads1, attr.ints('strides', [2, 2])]),
        node('Sigmoid', ['c3'], ['s3']),
        node('Conv', ['s3', 'c4.w'], ['c4'], [pads1, attr.int('group', 24)]),
        node('Add', ['c4', 'c3'], ['a4']),
        node('Conv', ['a4', 'c5.w', 'c5.b'], ['c5']),
        node('Relu', ['c5'], ['r5']),
        node('GlobalAveragePool', ['r5'], ['gap']),
        node('Flatten', ['gap'], ['flat']),
        node('Gemm', ['flat', 'fc.w', 'fc.b'], ['y'], [attr.int('transB', 1)]),
      ],
    },
  });
}

/** x [2, 16, 64]: MatMul+Add, Gelu as exporters write it (erf), MatMul+Add, residual Add, LayerNormalization. */
function mlpModel(): Uint8Array {
  return encodeModel({
    graph: {
      name: 'mlp',
      inputs: [input('x', [2, 16, 64])],
      outputs: [input('y', [2, 16, 64])],
      initializers: [
        weight('w1', [64, 128]),
        weight('b1', [128]),
        weight('w2', [128, 64], 2),
        weight('b2', [64]),
        floats('sqrt2', [Math.SQRT2], []),
        floats('one', [1], []),
        floats('half', [0.5], []),
        floats('g', new Array<number>(64).fill(1)),
        floats('beta', new Array<number>(64).fill(0)),
      ],
      nodes: [
        node('MatMul', ['x', 'w1'], ['mm1']),
        node('Add', ['mm1', 'b1'], ['h1']),
        node('Div', ['h1', 'sqrt2'], ['gd']),
        node('Erf', ['gd'], ['ge']),
        node('Add', ['ge', 'one'], ['ga']),
        node('Mul', ['h1', 'ga'], ['gm']),
        node('Mul', ['gm', 'half'], ['gelu']),
        node('MatMul', ['gelu', 'w2'], ['mm2']),
        node('Add', ['mm2', 'b2'], ['h2']),
        node('Add', ['h2', 'x'], ['res']),
        node('LayerNormalization', ['res', 'g', 'beta'], ['y'], [attr.int('axis', -1)]),
      ],
    },
  });
}

/** x [8, 64]: MatMul+Add+Relu (FusedGemm), MatMul+Add (Gemm), Identity and Dropout (eliminated). */
function denseModel(): Uint8Array {
  return encodeModel({
    graph: {
      name: 'dense',
      inputs: [input('x', [8, 64])],
      outputs: [input('y', [8, 32])],
      initializers: [weight('w1', [64, 128]), weight('b1', [128]), weight('w2', [128, 32], 2), weight('b2', [32])],
      nodes: [
        node('Identity', ['x'], ['xi']),
        node('MatMul', ['xi', 'w1'], ['mm1']),
        node('Add', ['mm1', 'b1'], ['h1']),
        node('Relu', ['h1'], ['r1']),
        node('Dropout', ['r1'], ['d1']),
        node('MatMul', ['d1', 'w2'], ['mm2']),
        node('Add', ['mm2', 'b2'], ['y']),
      ],
    },
  });
}

/** x [4, 10, 48]: LayerNorm written out (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add), then a MatMul. */
function layerNormModel(): Uint8Array {
  return encodeModel({
    graph: {
      name: 'layernorm',
      inputs: [input('x', [4, 10, 48])],
      outputs: [input('y', [4, 10, 16])],
      initializers: [
        ints('axes', [-1]),
        floats('two', [2], []),
        floats('eps', [1e-5], []),
        floats(
          'gamma',
          Array.from({ length: 48 }, (_, i) => 1 + i / 100),
        ),
        floats(
          'beta',
          Array.from({ length: 48 }, (_, i) => i / 100),
        ),
        weight('w', [48, 16]),
      ],
      nodes: [
        node('ReduceMean', ['x', 'axes'], ['mean'], [attr.int('keepdims', 1)]),
        node('Sub', ['x', 'mean'], ['d']),
        node('Pow', ['d', 'two'], ['sq']),
        node('ReduceMean', ['sq', 'axes'], ['var'], [attr.int('keepdims', 1)]),
        node('Add', ['var', 'eps'], ['ve']),
        node('Sqrt', ['ve'], ['std']),
        node('Div', ['d', 'std'], ['norm']),
        node('Mul', ['norm', 'gamma'], ['scaled']),
        node('Add', ['scaled', 'beta'], ['ln']),
        node('MatMul', ['ln', 'w'], ['y']),
      ],
    },
    opsetImports: [{ domain: '', version: 18 }],
  });
}

describe('graphs ONNX Runtime executes', () => {
  it('PaddleOCR direction classifier: NCHWc convs, reorders, FusedConv', async () => {
    const bytes = new Uint8Array(readFileSync('test/fixtures/onnx/paddleocr-cls-mobile-v2.onnx'));
    const c = await prepare(bytes, { x: [1, 3, 48, 192] });
    checkCase(c);
    // The executed graph records no shapes: they all come from inference.
    expect(c.executed.graph.valueInfo).toEqual([]);
    if (c.shapes.nchwcBlock !== null) {
      expect([8, 16]).toContain(c.shapes.nchwcBlock);
      expect(c.executed.opsets.map((o) => o.domain)).toContain(NCHWC_DOMAIN);
      expect(c.executed.graph.nodes.some((n) => n.domain === NCHWC_DOMAIN && n.opType === 'Conv')).toBe(true);
    }
  });

  it('a conv chain: Conv+BN+Relu, MaxPool, 24 and 40 channels, depthwise conv with a fused Add', async () => {
    const c = await prepare(convChainModel(), { x: [1, 3, 32, 32] });
    checkCase(c);
    const names = (i: number): string[] =>
      (c.map.executedToSource[i] ?? []).map((s) => c.source.graph.nodes[s]?.name ?? '?');
    const execOf = (user: string): number[] =>
      c.map.sourceToExecuted[c.source.graph.nodes.findIndex((n) => n.name === user)] ?? [];
    // The conv doing Conv+BN+Relu covers all three, its Conv first.
    const conv2 = execOf('c2').find((i) => c.costs[i]?.family === 'conv') ?? -1;
    expect(names(conv2)).toEqual(['c2', 'b2', 'r2']);
    // The residual Add is fused somewhere (into the depthwise conv with NCHWc), not lost.
    expect(execOf('a4').length).toBeGreaterThan(0);
    // Blocked tensors carry their true channel counts.
    if (c.shapes.nchwcBlock !== null) {
      const c3 = c.executed.graph.nodes.find((n) => n.name.startsWith('c3'));
      const t = c.shapes.tensors.get(c3?.outputs[0] ?? '');
      expect(blockedChannels(t)).toBe(24);
      expect((t?.dims?.[1] ?? 0) % c.shapes.nchwcBlock).toBe(0);
    }
  });

  it('an MLP: MatMul+Add, Gelu, residual and LayerNormalization', async () => {
    const c = await prepare(mlpModel(), { x: [2, 16, 64] });
    checkCase(c);
    const families = new Set(c.costs.map((k) => k.family));
    expect(families).toContain('gemm');
    expect(families).toContain('layernorm');
    // The Gelu chain (Div, Erf, Add, Mul, Mul) runs as one node covering all five.
    const gelu = c.executed.graph.nodes.findIndex((n) => n.opType.includes('Gelu'));
    if (gelu >= 0) expect(c.map.executedToSource[gelu]).toHaveLength(5);
    // A MatMul+Add Gemm's time goes to the MatMul.
    const gemm = c.executed.graph.nodes.findIndex((n) => n.opType === 'Gemm');
    if (gemm >= 0) expect(c.source.graph.nodes[c.map.executedToSource[gemm]?.[0] ?? -1]?.opType).toBe('MatMul');
  });

  it('dense layers: FusedGemm, Gemm; Identity and Dropout eliminated', async () => {
    const c = await prepare(denseModel(), { x: [8, 64] });
    checkCase(c);
    const fused = c.executed.graph.nodes.findIndex((n) => n.opType === 'FusedGemm');
    if (fused >= 0) expect(c.costs[fused]?.kernel).toEqual({ op: 'Gemm', shape: { M: 8, N: 128, K: 64, act: 1 } });
    // ORT eliminates them: they cover nothing, and no executed node takes them over.
    expect(c.map.fusedAway.map((s) => c.source.graph.nodes[s]?.opType).sort()).toEqual(['Dropout', 'Identity']);
  });

  it('a LayerNorm written out, fused into one node', async () => {
    const c = await prepare(layerNormModel(), { x: [4, 10, 48] });
    checkCase(c);
    const ln = c.executed.graph.nodes.findIndex((n) => n.opType.includes('LayerNormalization'));
    if (ln >= 0) {
      expect(c.costs[ln]?.family).toBe('layernorm');
      expect(c.map.executedToSource[ln]).toHaveLength(9);
    }
  });

  it('a transformer encoder with symbolic dims: FusedMatMul, BiasGelu, shape chains', async () => {
    const dims = { batch: 2, seq: 8 };
    const bytes = transformerModel();
    const source = parseOnnxModel(bytes);
    const executed = parseOnnxModel(await optimize(bytes));
    const shapes = inferShapes(executed, { dims });
    expect(shapes.warnings).toEqual([]);
    expect(shapes.unknownNodes.size).toBe(0);
    const w = importOnnxModel(executed, { name: 'enc', dims });
    expect(w.costs.filter((k) => k.kind === 'fallback')).toEqual([]);
    expect(w.workload.nodes.at(-1)?.outputs[0]?.dims).toEqual([2, 8, 64]);
    const map = mapExecutedNodes(source, executed);
    expect(map.executedToSource.every((l) => l.length > 0)).toBe(true);
    const sourceCosts = importOnnxModel(source, { name: 'src', dims }).costs;
    expect(map.fusedAway.filter((s) => sourceCosts[s]?.kind === 'kernel')).toEqual([]);
  });
});

/** com.microsoft ops ORT's fusions emit, each on its own (run unoptimized, so ORT keeps them). */
function contribOpsModel(): Uint8Array {
  const ms = (op: string, ins: string[], out: string, attrs: NodeDef['attributes'] = []): NodeDef => ({
    ...node(op, ins, [out], attrs),
    domain: 'com.microsoft',
  });
  return encodeModel({
    opsetImports: [
      { domain: '', version: 17 },
      { domain: 'com.microsoft', version: 1 },
    ],
    graph: {
      name: 'contrib',
      inputs: [
        input('a', [3, 2, 4]),
        input('b', [2, 3, 5]),
        input('x', [2, 4, 8]),
        input('img', [1, 4, 6, 6]),
        input('m', [6, 8]),
      ],
      outputs: [
        input('mm', [2, 4, 5]),
        input('bg', [2, 4, 8]),
        input('fg', [2, 4, 8]),
        input('qg', [2, 4, 8]),
        input('sln', [2, 4, 8]),
        input('fgm', [6, 3]),
        input('fc', [1, 8, 6, 6]),
      ],
      initializers: [
        weight('bias', [8]),
        floats('gamma', new Array<number>(8).fill(1)),
        floats('beta', new Array<number>(8).fill(0)),
        weight('gw', [8, 3], 3),
        weight('gb', [3]),
        weight('cw', [8, 4, 3, 3], 4),
        weight('cb', [8]),
        weight('z', [1, 8, 6, 6], 5),
      ],
      nodes: [
        ms('FusedMatMul', ['a', 'b'], 'mm', [
          attr.int('transBatchA', 1),
          attr.int('transA', 1),
          attr.float('alpha', 0.5),
        ]),
        ms('BiasGelu', ['x', 'bias'], 'bg'),
        ms('FastGelu', ['x', 'bias'], 'fg'),
        ms('QuickGelu', ['x'], 'qg', [attr.float('alpha', 1.702)]),
        ms('SkipLayerNormalization', ['x', 'bg', 'gamma', 'beta'], 'sln'),
        ms('FusedGemm', ['m', 'gw', 'gb'], 'fgm', [attr.string('activation', 'Relu')]),
        ms('FusedConv', ['img', 'cw', 'cb', 'z'], 'fc', [pads1, attr.string('activation', 'Relu')]),
      ],
    },
  });
}

describe('com.microsoft fusions', () => {
  it('have the shapes ONNX Runtime computes, and cost as the ops they run', async () => {
    const bytes = contribOpsModel();
    const inputs = { a: [3, 2, 4], b: [2, 3, 5], x: [2, 4, 8], img: [1, 4, 6, 6], m: [6, 8] };
    const model = parseOnnxModel(bytes);
    const r = inferShapes(model, { inputs });
    expect(r.warnings).toEqual([]);
    for (const [name, dims] of await runShapes(bytes, inputs)) expect(r.tensors.get(name)?.dims, name).toEqual(dims);
    const w = importOnnxModel(model, { name: 'contrib', inputs });
    const byName = new Map(w.workload.nodes.map((n, i) => [n.name, w.costs[i]]));
    expect([...byName.values()].map((k) => k?.kind)).toEqual(new Array<string>(7).fill('kernel'));
    expect(byName.get('mm')).toMatchObject({ kernel: { op: 'MatMul', shape: { B: 2, M: 4, N: 5, K: 3 } }, flops: 240 });
    expect(byName.get('bg')?.kernel?.op).toBe('Gelu');
    // A kernel of its own: ~11x LayerNormalization's time per element on the CPU EP.
    expect(byName.get('sln')).toMatchObject({
      family: 'layernorm',
      kernel: { op: 'SkipLayerNormalization', shape: { rows: 8, cols: 8 } },
    });
    expect(byName.get('fgm')?.kernel).toEqual({ op: 'Gemm', shape: { M: 6, N: 3, K: 8, act: 1 } });
    expect(byName.get('fc')?.kernel?.shape).toMatchObject({ C: 4, K: 8, act: 1, sum: 1 });
    expect(byName.get('fc')?.flops).toBe(2 * 8 * 36 * 4 * 9);
  });
});

/**
 * A graph as ORT writes it for `block`: x [1, 3, 16, 16] -> nchwc Conv(3 -> 12 padded, NCHW
 * input) -> depthwise nchwc Conv -> nchwc Conv(12 -> 20 padded) -> ReorderOutput(20), and a
 * ReorderInput of a 12-channel tensor into a pool.
 */
function handNchwcModel(block: 8 | 16): OnnxModel {
  const up = (n: number): number => Math.ceil(n / block) * block;
  const conv = (name: string, ins: string[], out: string, extra: NodeDef['attributes'] = []): NodeDef => ({
    ...node('Conv', ins, [out], [attr.ints('kernel_shape', [3, 3]), pads1, ...(extra ?? [])], name),
    domain: NCHWC_DOMAIN,
  });
  const bytes = encodeModel({
    opsetImports: [
      { domain: '', version: 17 },
      { domain: NCHWC_DOMAIN, version: 1 },
    ],
    graph: {
      name: 'hand',
      inputs: [input('x', [1, 3, 16, 16]), input('z', [1, 12, 8, 8])],
      outputs: [input('y', [1, 20, 16, 16]), input('p', [1, 12, 4, 4])],
      initializers: [
        weight('w1', [up(12), 3, 3, 3]),
        weight('w2', [up(12), 1, 3, 3]),
        weight('w3', [up(20), up(12), 3, 3]),
      ],
      nodes: [
        conv('r_nchwc', ['x', 'w1'], 't1', [attr.string('activation', 'Relu')]),
        conv('dw_nchwc', ['t1', 'w2'], 't2', [attr.int('group', up(12))]),
        conv('y_nchwc', ['t2', 'w3'], 't3'),
        { ...node('ReorderOutput', ['t3'], ['y'], [attr.int('channels', 20)]), domain: NCHWC_DOMAIN },
        { ...node('ReorderInput', ['z'], ['zb']), domain: NCHWC_DOMAIN },
        {
          ...node('MaxPool', ['zb'], ['pb'], [attr.ints('kernel_shape', [2, 2]), attr.ints('strides', [2, 2])]),
          domain: NCHWC_DOMAIN,
        },
        { ...node('ReorderOutput', ['pb'], ['p'], [attr.int('channels', 12)]), domain: NCHWC_DOMAIN },
      ],
    },
  });
  return parseOnnxModel(bytes);
}

describe('NCHWc graphs for either block size, by hand', () => {
  for (const block of [8, 16] as const) {
    it(`block ${block}: block size, padded shapes, true channels, costs`, () => {
      const model = handNchwcModel(block);
      const r = inferShapes(model, { nchwcChannels: { t1: 12 } });
      expect(r.warnings).toEqual([]);
      expect(r.nchwcBlock).toBe(block);
      const dims = (t: string): number[] | null | undefined => r.tensors.get(t)?.dims;
      const pad12 = 16; // 12 channels pad to 16 with either block
      expect(dims('t1')).toEqual([1, pad12, 16, 16]);
      expect(dims('t3')).toEqual([1, block === 8 ? 24 : 32, 16, 16]);
      expect(dims('y')).toEqual([1, 20, 16, 16]);
      expect(dims('zb')).toEqual([1, pad12, 8, 8]);
      expect(dims('p')).toEqual([1, 12, 4, 4]);
      // t1 and t2 (through the depthwise conv) are 12 by the hint; t3 is 20 by its ReorderOutput.
      expect(['t1', 't2', 't3', 'zb', 'pb'].map((t) => blockedChannels(r.tensors.get(t)))).toEqual([
        12, 12, 20, 12, 12,
      ]);
      const costs = model.graph.nodes.map((n) =>
        nodeCost(
          n,
          17,
          n.inputs.map((t) => r.tensors.get(t)),
          n.outputs.map((t) => r.tensors.get(t)),
        ),
      );
      expect(costs.map((k) => k.kind)).toEqual(new Array<string>(7).fill('kernel'));
      // Convs cost at the channels they run: padded up to the block.
      const pad20 = block === 8 ? 24 : 32;
      expect(costs[0]?.kernel?.shape).toMatchObject({ C: 3, K: pad12, groups: 1, nchwc: 1, act: 1 });
      expect(costs[0]?.flops).toBe(2 * pad12 * 256 * 3 * 9);
      expect(costs[1]?.kernel?.shape).toMatchObject({ C: pad12, K: pad12, groups: pad12, nchwc: 1 });
      expect(costs[1]?.flops).toBe(2 * pad12 * 256 * 9);
      expect(costs[2]?.kernel?.shape).toMatchObject({ C: pad12, K: pad20, groups: 1 });
      expect(costs[2]?.flops).toBe(2 * pad20 * 256 * pad12 * 9);
      // Reorders cost as the reorder kernels of their NCHW side, whatever the block.
      expect(costs[3]).toMatchObject({
        family: 'datamove',
        kernel: { op: 'ReorderOutput', shape: { N: 1, C: 20, H: 16, W: 16 } },
        flops: 0,
        bytes: 8 * 20 * 256,
      });
      expect(costs[4]).toMatchObject({ kernel: { op: 'ReorderInput', shape: { N: 1, C: 12, H: 8, W: 8 } } });
      expect(costs[6]).toMatchObject({ kernel: { op: 'ReorderOutput', shape: { N: 1, C: 12, H: 4, W: 4 } } });
      expect(costs[5]).toMatchObject({ family: 'reduction', kernel: { shape: { nchwc: 1 } } });
    });
  }

  it('without the hint, a tensor whose count the graph does not tell stays padded; its conv costs the same', () => {
    const r = inferShapes(handNchwcModel(8));
    const t1 = r.tensors.get('t1');
    expect(blockedChannels(t1)).toBe(16);
    const n = handNchwcModel(8).graph.nodes[0];
    if (!n) throw new Error('no node');
    const k = nodeCost(
      n,
      17,
      n.inputs.map((t) => r.tensors.get(t)),
      n.outputs.map((t) => r.tensors.get(t)),
    );
    expect(k.kernel?.shape).toMatchObject({ C: 3, K: 16, nchwc: 1 });
    expect(k.kernel?.shape.padded).toBeUndefined();
  });
});
