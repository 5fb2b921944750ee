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
import { fileURLToPath } from 'node:url';

export const ONNX_PYTHON = '/usr/bin/python3';

const BATCH_BYTES = 512 * 1024 * 1024;

/** One JSON line per model: the checker's verdict and how the parser reads it back. */
const SCRIPT = fileURLToPath(new URL('./python/onnx_check.py', import.meta.url));

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
  const r = spawnSync(ONNX_PYTHON, [SCRIPT, ...batch.map((b) => b.file)], {
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
