/**
 * The official ONNX shape inference as a test oracle: Debian's python3-onnx
 * (onnx.shape_inference.infer_shapes with data propagation), run by /usr/bin/python3 on a copy
 * of the model whose graph inputs are given static shapes first. Also rewrites a model so that
 * every node output is a graph output, for ONNX Runtime to report every tensor's real shape.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ONNX_PYTHON } from './onnx-oracle.js';

/** Per tensor: its dims (a number, a symbolic name, or null when unknown), or null for an unknown rank. */
export type OracleShapes = Map<string, (number | string | null)[] | null>;

const INFER = String.raw`
import json, sys
import onnx
from onnx import shape_inference

path, binding_path, out_path = sys.argv[1:4]
bind = json.load(open(binding_path))
m = onnx.load(path, load_external_data=False)
for i in m.graph.input:
    dims = bind.get(i.name)
    if dims is None:
        continue
    shape = i.type.tensor_type.shape
    del shape.dim[:]
    for d in dims:
        shape.dim.add().dim_value = d
m = shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
def dims(v):
    t = v.type.tensor_type
    if not t.HasField('shape'):
        return None
    return [d.dim_value if d.HasField('dim_value') else (d.dim_param or None) for d in t.shape.dim]
out = {}
for v in list(m.graph.value_info) + list(m.graph.output) + list(m.graph.input):
    if v.type.HasField('tensor_type'):
        out[v.name] = dims(v)
json.dump(out, open(out_path, 'w'))
`;

const EXPOSE = String.raw`
import sys
import onnx
from onnx import helper, shape_inference

import json
path, out_path, given = sys.argv[1:4]
m = onnx.load(path, load_external_data=False)
types = json.loads(given)
try:
    inferred = shape_inference.infer_shapes(m, strict_mode=False)
    for v in list(inferred.graph.value_info) + list(inferred.graph.output):
        if v.type.tensor_type.elem_type:
            types[v.name] = v.type.tensor_type.elem_type
except Exception:
    pass
have = {o.name for o in m.graph.output}
inits = {t.name for t in m.graph.initializer}
for n in m.graph.node:
    for o in n.output:
        if o and o not in have and o not in inits and types.get(o):
            m.graph.output.append(helper.make_tensor_value_info(o, types[o], None))
            have.add(o)
onnx.save(m, out_path)
`;

function withTemp<T>(f: (dir: string) => T): T {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'onnx-shape-'));
  try {
    return f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function python(script: string, args: string[]): void {
  const r = spawnSync(ONNX_PYTHON, ['-c', script, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`onnx shape oracle failed: ${r.error?.message ?? r.stderr}`);
}

/** onnx.shape_inference's shapes for every tensor, after giving the inputs the shapes in `inputs`. */
export function oracleShapes(bytes: Uint8Array, inputs: Record<string, number[]>): OracleShapes {
  return withTemp((dir) => {
    const model = join(dir, 'm.onnx');
    const bind = join(dir, 'bind.json');
    const out = join(dir, 'shapes.json');
    writeFileSync(model, bytes);
    writeFileSync(bind, JSON.stringify(inputs));
    python(INFER, [model, bind, out]);
    const parsed = JSON.parse(readFileSync(out, 'utf8')) as Record<string, (number | string | null)[] | null>;
    return new Map(Object.entries(parsed));
  });
}

/**
 * The model with every node output added as a graph output, typed as onnx infers (or, for
 * opsets onnx 1.12 does not know, as `types` says: ONNX Runtime checks them).
 */
export function exposeAllOutputs(bytes: Uint8Array, types: Record<string, number> = {}): Uint8Array {
  return withTemp((dir) => {
    const model = join(dir, 'm.onnx');
    const out = join(dir, 'all.onnx');
    writeFileSync(model, bytes);
    python(EXPOSE, [model, out, JSON.stringify(types)]);
    return new Uint8Array(readFileSync(out));
  });
}

/**
 * Tensors whose oracle dims are all numbers and differ from `ours` (a missing or unknown shape on
 * our side counts as a difference); `checked` counts the tensors compared.
 */
export function compareShapes(
  oracle: ReadonlyMap<string, (number | string | null)[] | null>,
  ours: (name: string) => number[] | null | undefined,
): { checked: number; mismatches: string[] } {
  let checked = 0;
  const mismatches: string[] = [];
  for (const [name, dims] of oracle) {
    if (!dims || !dims.every((d): d is number => typeof d === 'number')) continue;
    checked++;
    const mine = ours(name);
    if (!mine || mine.join(',') !== dims.join(',')) {
      mismatches.push(`${name}: ours [${mine ? mine.join(',') : 'unknown'}], oracle [${dims.join(',')}]`);
    }
  }
  return { checked, mismatches };
}
