/**
 * The official ONNX checker as a test oracle: Debian's python3-onnx, run by /usr/bin/python3
 * (a python3 elsewhere on PATH cannot see the Debian packages). Models are written to a temp
 * dir (in /dev/shm where there is one) and checked by one Python process per batch (~512 MiB of models), which also reports how
 * the official parser reads each model back, so field numbers are checked, not just validity.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ONNX_PYTHON = '/usr/bin/python3';

const BATCH_BYTES = 512 * 1024 * 1024;

const SCRIPT = String.raw`
import json, sys
import onnx
from onnx import checker, numpy_helper

def dims(vi):
    return [d.dim_param if d.HasField('dim_param') else d.dim_value for d in vi.type.tensor_type.shape.dim]

def first(t):
    # Leading values of small tensors only: decoding a 64 MiB weight just for this costs time.
    count = 1
    for d in t.dims:
        count *= d
    if t.data_type == 16 or count > 65536:
        return []
    return numpy_helper.to_array(t).reshape(-1)[:4].astype('float64').tolist()

for path in sys.argv[1:]:
    out = {'file': path, 'error': None}
    try:
        m = onnx.load(path)
        checker.check_model(m, full_check=True)
        g = m.graph
        out['model'] = {
            'irVersion': m.ir_version,
            'producerName': m.producer_name,
            'producerVersion': m.producer_version,
            'opsets': [{'domain': o.domain, 'version': o.version} for o in m.opset_import],
            'graphName': g.name,
            'nodes': [{'opType': n.op_type, 'name': n.name, 'domain': n.domain, 'inputs': list(n.input), 'outputs': list(n.output),
                       'attributes': {a.name: onnx.helper.get_attribute_value(a) if a.type != onnx.AttributeProto.TENSOR else 'tensor'
                                      for a in n.attribute}} for n in g.node],
            'inputs': [{'name': v.name, 'elemType': v.type.tensor_type.elem_type, 'dims': dims(v)} for v in g.input],
            'outputs': [{'name': v.name, 'elemType': v.type.tensor_type.elem_type, 'dims': dims(v)} for v in g.output],
            'initializers': [{'name': t.name, 'dataType': t.data_type, 'dims': list(t.dims),
                              'first': first(t)}
                             for t in g.initializer],
        }
    except Exception as e:
        out['error'] = f'{type(e).__name__}: {e}'
    print(json.dumps(out, default=lambda v: v.decode() if isinstance(v, bytes) else str(v)), flush=True)
`;

/** How the official parser reads a model back (attribute values as onnx.helper decodes them). */
export interface ParsedModel {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  opsets: { domain: string; version: number }[];
  graphName: string;
  nodes: {
    opType: string;
    name: string;
    domain: string;
    inputs: string[];
    outputs: string[];
    attributes: Record<string, unknown>;
  }[];
  inputs: { name: string; elemType: number; dims: (number | string)[] }[];
  outputs: { name: string; elemType: number; dims: (number | string)[] }[];
  /** `first`: up to 4 leading values (empty for bfloat16, which numpy lacks, and past 65536 elements). */
  initializers: { name: string; dataType: number; dims: number[]; first: number[] }[];
}

export interface CheckResult {
  /** null when the model passes check_model(full_check=True). */
  error: string | null;
  model?: ParsedModel;
}

/** Checks every model with the official checker; results keyed by the given names. */
export function checkModels(models: Iterable<{ name: string; bytes: Uint8Array }>): Map<string, CheckResult> {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'onnx-oracle-'));
  const results = new Map<string, CheckResult>();
  try {
    let batch: { name: string; file: string }[] = [];
    let batchBytes = 0;
    const flush = (): void => {
      if (batch.length === 0) return;
      runBatch(batch, results);
      for (const b of batch) rmSync(b.file, { force: true });
      batch = [];
      batchBytes = 0;
    };
    let i = 0;
    for (const m of models) {
      const file = join(dir, `m${i++}.onnx`);
      writeFileSync(file, m.bytes);
      batch.push({ name: m.name, file });
      batchBytes += m.bytes.length;
      if (batchBytes >= BATCH_BYTES) flush();
    }
    flush();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

function runBatch(batch: { name: string; file: string }[], results: Map<string, CheckResult>): void {
  const r = spawnSync(ONNX_PYTHON, ['-c', SCRIPT, ...batch.map((b) => b.file)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`onnx oracle failed: ${r.error?.message ?? r.stderr}`);
  const byFile = new Map<string, CheckResult>();
  for (const line of r.stdout.split('\n')) {
    if (!line.trim()) continue;
    const parsed = JSON.parse(line) as { file: string; error: string | null; model?: ParsedModel };
    byFile.set(parsed.file, { error: parsed.error, model: parsed.model });
  }
  for (const b of batch) results.set(b.name, byFile.get(b.file) ?? { error: 'no result from the oracle' });
}
