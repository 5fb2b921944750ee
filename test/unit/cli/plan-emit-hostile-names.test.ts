/**
 * `plan --emit` with names from outside (issue 45): ONNX node names that break out of a Python
 * comment, and a machine label that is no Slurm node name, through the real CLI. The model's
 * names stay data in every file; the label refuses the emit in one line and writes nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attr, encodeModel } from '../../../src-main/core/onnx/model-builder.js';
import { encodeProfile } from '../../../src-main/core/profile-file/codec.js';
import { cli, tempDir } from '../../helpers/cli.js';
import { gpuServerProfile, GPU_BOX } from '../../helpers/gpu-profile.js';
import { seededDb } from '../../helpers/seeded-store.js';
import { input, node, weight } from '../core/workload/sample-models.js';

const PYTHON = '/usr/bin/python3';

async function store(dir: string, label?: string): Promise<string> {
  const db = path.join(dir, 'lab.db');
  seededDb(db).close();
  const file = path.join(dir, 'gpu-box.json');
  writeFileSync(file, encodeProfile(gpuServerProfile()));
  const imported = await cli(['import', file, '--db', db, ...(label === undefined ? [] : ['--label', label])]);
  expect(imported.code).toBe(0);
  expect((await cli(['train', '--db', db, '--predictor', 'analytical'])).code).toBe(0);
  return db;
}

/** Four Gemm + Relu layers whose node names each try to run `touch marker` from a comment or a string. */
function hostileModel(marker: string): Uint8Array {
  const names = [
    `fc0\n__import__("os").system("touch ${marker}")\n`,
    `relu0\r__import__("os").system("touch ${marker}")#`,
    `fc1"); open("${marker}", "w") #`,
    `relu1\u2028open("${marker}", "w")`,
    `fc2\n$(touch ${marker})`,
    'relu2',
    `fc3\n' ; touch ${marker} ; '`,
    `relu3\n__import__("os").system("touch ${marker}")`,
  ];
  const nodes = [0, 1, 2, 3].flatMap((i) => [
    node('Gemm', [i === 0 ? 'x' : `r${i - 1}`, `w${i}`], [`g${i}`], [attr.int('transB', 1)], names[2 * i]),
    node('Relu', [`g${i}`], [`r${i}`], [], names[2 * i + 1]),
  ]);
  return encodeModel({
    graph: {
      name: 'hostile',
      inputs: [input('x', [8, 256])],
      outputs: [input('r3', [8, 256])],
      initializers: [0, 1, 2, 3].map((i) => weight(`w${i}`, [256, 256], i + 1)),
      nodes,
    },
  });
}

const PLAN = ['plan', '--batch', '8', '--devices', 'none', '--machine'];

describe('plan --emit with hostile names', () => {
  it('keeps ONNX node names data in every emitted file', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'pwned');
    const db = await store(dir);
    const model = path.join(dir, 'hostile.onnx');
    writeFileSync(model, hostileModel(marker));
    expect((await cli(['workload', 'add', model, '--db', db])).code).toBe(0);
    const out = path.join(dir, 'plan');
    const r = await cli([...PLAN, GPU_BOX, '--workload', 'hostile', '--emit', out, '--db', db]);
    expect(r.code).toBe(0);
    const module = readFileSync(path.join(out, 'pipeline_module.py'), 'utf8');
    expect(module).toMatch(/^# layers: your model as \d+ layer specs, in the plan's order \(fc0\\n__import__/m);
    // Compiled and run with a stub deepspeed: every line of it, nothing injected.
    const stubs = path.join(dir, 'py', 'deepspeed');
    mkdirSync(stubs, { recursive: true });
    writeFileSync(path.join(stubs, '__init__.py'), '');
    writeFileSync(path.join(stubs, 'pipe.py'), 'class PipelineModule:\n    def __init__(self, **kw):\n        pass\n');
    for (const f of ['pipeline_module.py', 'train_pipeline.py']) {
      const source = readFileSync(path.join(out, f), 'utf8');
      execFileSync(PYTHON, ['-c', 'import sys; compile(sys.stdin.read(), "f", "exec")'], { input: source });
    }
    execFileSync(
      PYTHON,
      [
        '-c',
        'import runpy, sys; runpy.run_path(sys.argv[1], init_globals={"layers": [], "loss_fn": None}, run_name="x")',
        path.join(out, 'pipeline_module.py'),
      ],
      { env: { PYTHONPATH: path.join(dir, 'py') }, timeout: 20_000 },
    );
    for (const f of readdirSync(out).filter((n) => n.endsWith('.sh') || n.endsWith('.sbatch')))
      execFileSync('bash', ['-n', path.join(out, f)], { timeout: 20_000 });
    expect(readFileSync(path.join(out, 'README.txt'), 'utf8')).not.toMatch(/[\r\u2028]/);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses in one line a machine label that cannot be a Slurm node name, and writes nothing', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'pwned');
    const label = `box$(touch ${marker})`;
    const db = await store(dir, label);
    const out = path.join(dir, 'plan');
    const r = await cli([...PLAN, 'box*', '--workload', 'gpt2-small', '--emit', out, '--db', db]);
    expect(r.stderr).toBe(
      `pipedejavu: error: plan --emit: machine label "${label}" cannot be a Slurm node name (the character "$"); rename it with import --label\n`,
    );
    expect(r.code).toBe(1);
    expect(existsSync(path.join(out, 'job.sbatch'))).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });
});
