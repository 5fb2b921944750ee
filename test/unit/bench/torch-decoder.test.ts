/**
 * bench:decode's torch decoder (bench/lib/torch-decoder.ts): the script carries its job as quoted
 * data, has the ONNX decoder's weights, says in one line when torch is missing, and runs a real
 * decode step and prefill on Debian's CPU-only torch where it is installed (behaviour, not speed).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  runTorchDecoder,
  torchDecoderParams,
  torchDecoderScript,
  torchStepShape,
  type TorchDecoderJob,
} from '../../../bench/lib/torch-decoder.js';
import { tempDir } from '../../helpers/cli.js';
import { decoderStepModel } from '../../helpers/decoder-step-model.js';
import { needOracle } from '../../helpers/oracle.js';
import { envWithoutTorch, SYSTEM_PYTHON } from '../../helpers/torch-python.js';

const config = { label: 'tiny', layers: 2, hidden: 128, heads: 4, kvHeads: 2, ffn: 352, vocab: 1000, context: 64 };
const job: TorchDecoderJob = {
  config,
  threads: [1],
  prompts: [16],
  decode: true,
  warmupRuns: 1,
  minRuns: 30,
  budgetMs: 0,
};

describe('the torch decoder script', () => {
  it('carries its job as one quoted literal: a hostile label comes back intact, nothing of it runs', () => {
    const label = `x"); import os; os._exit(3) #\n'''\\u0000 \\" ${'$'}{1} é`;
    const hostile = { ...job, config: { ...config, label } };
    const file = path.join(tempDir(), 'job.py');
    writeFileSync(file, torchDecoderScript(hostile));
    const back = execFileSync(SYSTEM_PYTHON, [file, '--job'], { encoding: 'utf8' });
    expect(JSON.parse(back)).toEqual(hostile);
  });

  it('has the ONNX decoder’s weights less the LayerNorms’ biases, its matrices, and counts its eager ops', () => {
    const onnx = decoderStepModel({ ...config, dataflow: 'read-once' }).shape;
    const shape = torchStepShape(config);
    expect(shape.params).toBe(onnx.params - (2 * config.layers + 1) * config.hidden);
    expect(shape.params).toBe(torchDecoderParams(config));
    expect(shape.meanMatrixParams).toBe(onnx.meanMatrixParams);
    expect(shape.nodesPerStep).toBe(36 * 2 + 8);
  });

  it('says in one line that torch is skipped where the Python has none', async () => {
    const r = await runTorchDecoder(job, {
      dir: tempDir(),
      python: SYSTEM_PYTHON,
      timeoutMs: 60_000,
      env: envWithoutTorch(),
    });
    expect(r).toEqual({
      ok: false,
      line: `torch: skipped, no torch in ${SYSTEM_PYTHON} (ModuleNotFoundError: No module named 'torch')`,
    });
  });

  it.skipIf(!needOracle('torch'))(
    'runs a tiny decode step and prefill on Debian’s torch: its weights, its cache, at least 30 runs each',
    async () => {
      const r = await runTorchDecoder(job, { dir: tempDir(), python: SYSTEM_PYTHON, timeoutMs: 120_000 });
      expect(r).toMatchObject({ ok: true, params: torchDecoderParams(config), cacheValues: 2 * 2 * 2 * 32 * 64 });
      if (!r.ok) return;
      expect(r.cells.map((c) => [c.kind, c.tokens, c.threads])).toEqual([
        ['decode', 64, 1],
        ['prefill', 16, 1],
      ]);
      for (const c of r.cells) {
        expect(c.runs).toBeGreaterThanOrEqual(30);
        expect(c.medianUs).toBeGreaterThan(0);
      }
    },
    120_000,
  );
});
