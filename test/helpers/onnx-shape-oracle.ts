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
import { fileURLToPath } from 'node:url';
import { ONNX_PYTHON } from './onnx-oracle.js';

/** Per tensor: its dims (a number, a symbolic name, or null when unknown), or null for an unknown rank. */
export type OracleShapes = Map<string, (number | string | null)[] | null>;

const INFER = fileURLToPath(new URL('./python/onnx_infer_shapes.py', import.meta.url));

const EXPOSE = fileURLToPath(new URL('./python/onnx_expose_outputs.py', import.meta.url));

function withTemp<T>(f: (dir: string) => T): T {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'onnx-shape-'));
  try {
    return f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function python(script: string, args: string[]): void {
  const r = spawnSync(ONNX_PYTHON, [script, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
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
