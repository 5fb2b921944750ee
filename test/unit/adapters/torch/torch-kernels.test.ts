/**
 * The PyTorch runner's ops compute what the ONNX kernel of the same spec computes
 * (core/kernels/build.ts): the same output and the same tensors read. A kernel built otherwise is
 * timed for work its FLOP and byte counts do not describe: a transposed conv run as a strided
 * forward conv did a quarter of its counted FLOPs and set the torch-cpu profile's fp32 peak at
 * 432 GFLOP/s on one Zen 5 core (bench/runs/h62-torch2.md).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildKernelModel } from '../../../../src-main/core/kernels/build.js';
import { makeKernel } from '../../../../src-main/core/kernels/cost.js';
import type { KernelSpec } from '../../../../src-main/core/kernels/types.js';
import { kernelsFor } from '../../../../src-main/services/profile/profiler-service.js';
import { SYSTEM_PYTHON } from '../../../helpers/torch-python.js';
import { needOracle } from '../../../helpers/oracle.js';

const RUNNER_DIR = fileURLToPath(new URL('../../../../src-main/adapters/torch/', import.meta.url));

/**
 * Builds each kernel with the runner's build() and runs it once: its output's dims (an RNN's
 * final hidden state, ONNX's Y_h) and the elements of the tensors it reads (those its closure
 * holds, a module's parameters).
 */
const PROBE = String.raw`
import json, sys, types
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import torch, torch_runner as R
def reads(obj, seen):
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    if isinstance(obj, torch.Tensor):
        return obj.numel()
    if isinstance(obj, torch.nn.Module):
        return sum(reads(p, seen) for p in obj.parameters())
    if isinstance(obj, (list, tuple)):
        return sum(reads(o, seen) for o in obj)
    if isinstance(obj, types.FunctionType):
        return sum(reads(c.cell_contents, seen) for c in (obj.__closure__ or ()))
    return 0
out = []
with torch.no_grad():
    for k in json.load(sys.stdin):
        fn = R.build(k["op"], k["shape"], R.DTYPES[k["dtype"]], "cpu")
        y = fn()
        if isinstance(y, tuple):
            y = y[1][0] if isinstance(y[1], tuple) else y[1]
        out.append({"id": k["id"], "dims": list(y.shape), "reads": reads(fn, set())})
print(json.dumps(out))
`;

interface Probed {
  id: string;
  dims: number[];
  reads: number;
}

function probe(kernels: readonly KernelSpec[]): Probed[] {
  const input = JSON.stringify(kernels.map((k) => ({ id: k.id, op: k.op, dtype: k.dtype, shape: k.shape })));
  const r = spawnSync(SYSTEM_PYTHON, ['-c', PROBE, RUNNER_DIR], { input, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Probed[];
}

/** The ONNX kernel's output dims and the elements of its inputs, weights included (scalar constants are not). */
function onnxKernel(k: KernelSpec): { dims: number[]; reads: number } {
  const m = buildKernelModel(k, { weightsAsInputs: true });
  const reads = m.inputs.reduce((s, t) => s + t.dims.reduce((a, d) => a * d, 1), 0);
  return { dims: [...m.output.dims], reads };
}

/** Ops whose ONNX graph holds a table as a constant, not an input: a norm's scale and bias, an LSTM's initial state. */
const CONSTANT_TABLES: ReadonlySet<string> = new Set(['LayerNormalization', 'SkipLayerNormalization', 'LSTM', 'GRU']);

describe.skipIf(!needOracle('torch'))('the PyTorch runner’s kernels against the ONNX ones', () => {
  it('every quick-suite kernel up to 32 MiB: the same output, and the same tensors read', () => {
    const kernels = kernelsFor({ name: 'torch-cpu', threads: 1 }, 'quick').filter((k) => k.bytes <= 32 * 2 ** 20);
    expect(kernels.length).toBeGreaterThan(200);
    const got = new Map(probe(kernels).map((p) => [p.id, p]));
    for (const k of kernels) {
      const want = onnxKernel(k);
      const p = got.get(k.id);
      expect(p?.dims, k.id).toEqual(want.dims);
      if (!CONSTANT_TABLES.has(k.op)) expect(p?.reads, k.id).toBe(want.reads);
    }
  }, 120_000);

  it('a transposed conv, a 1-D conv, a valid conv and a scalar Add, as ONNX builds them', () => {
    const kernels = [
      makeKernel('Conv', 'fp32', { N: 1, C: 128, H: 32, W: 32, K: 64, R: 2, S: 2, stride: 2, groups: 1, transpose: 1 }),
      makeKernel('Conv', 'fp32', {
        N: 1,
        C: 256,
        H: 64,
        W: 1,
        K: 128,
        R: 16,
        S: 1,
        stride: 8,
        groups: 1,
        d1: 1,
        transpose: 1,
      }),
      makeKernel('Conv', 'fp32', {
        N: 1,
        C: 64,
        H: 99,
        W: 1,
        K: 32,
        R: 3,
        S: 1,
        stride: 2,
        groups: 1,
        d1: 1,
        valid: 1,
      }),
      makeKernel('Conv', 'fp32', { N: 1, C: 32, H: 56, W: 56, K: 32, R: 3, S: 3, stride: 1, groups: 32, act: 1 }),
      makeKernel('Add', 'fp32', { n: 4096, scalar: 1 }),
      makeKernel('Mul', 'fp32', { n: 4096, scalar: 1 }),
    ];
    const got = probe(kernels);
    expect(got.map((p) => p.dims)).toEqual([
      [1, 64, 64, 64],
      [1, 128, 520],
      [1, 32, 49],
      [1, 32, 56, 56],
      [4096],
      [4096],
    ]);
    expect(got.map((p) => p.dims)).toEqual(kernels.map((k) => onnxKernel(k).dims));
    // x + c reads x alone: c is a constant, not a second tensor of n.
    expect(got.slice(4).map((p) => p.reads)).toEqual([4096, 4096]);
  }, 60_000);
});
