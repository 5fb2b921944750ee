/**
 * Text from outside is data in every emitted file (issue 45): machine labels, device names, layer
 * names and the workload's name from a profile or a model someone handed over are fed, as hostile
 * strings from a seeded generator, to every engine export and to `plan --emit`'s files. The
 * emitted shell runs under bash with stub srun/scontrol/torchrun/vllm/llama-server, the emitted
 * Python runs under /usr/bin/python3 with stub torch and deepspeed packages, and each hostile
 * string tries to create a marker file: it never appears, bash and Python accept every file, and
 * a name that cannot be a Slurm node name is refused in one line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commentText,
  pythonString,
  shellQuote,
  slurmNodeNameRefusal,
} from '../../../../../src-main/core/planner/exports/common.js';
import { exportPlan, type ExportInput } from '../../../../../src-main/core/planner/exports/export-plan.js';
import type { PlanDevice, PlanLayer } from '../../../../../src-main/core/planner/types.js';
import type { SimEvent } from '../../../../../src-main/core/planner/simulator/pipeline-simulator.js';
import { planFiles } from '../../../../../src-main/services/plan/plan-emit-service.js';
import type { PlanResponse } from '../../../../../src-main/services/plan/plan-service.js';
import { seededRandom } from '../../../../../src-main/core/random.js';
import { tempDir } from '../../../../helpers/cli.js';
import { pipelinePlan } from '../../../../helpers/plan-exports.js';
import { ENGINE_NAMES } from '../../../../../src-main/core/engines/engine-names.js';

const PYTHON = '/usr/bin/python3';
const ROOT = tempDir();
const MARKER = path.join(ROOT, 'pwned');

const PIECES = [
  '\n',
  '\r',
  '\r\n',
  '\0',
  "'",
  '"',
  '`',
  '$(',
  ')',
  '#',
  '\\',
  ';',
  '&&',
  '|',
  ' ',
  '\t',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u202e',
  '\x1b[2J',
  '\ufeff',
  '{',
  '}',
  '*',
  ',',
];
/** Each tries to create the marker from wherever it lands: a shell word, a comment, a Python literal. */
const PAYLOADS = [
  `touch ${MARKER}`,
  `$(touch ${MARKER})`,
  `\`touch ${MARKER}\``,
  `\ntouch ${MARKER}\n`,
  `'; touch ${MARKER}; '`,
  `"; touch ${MARKER}; "`,
  `\r\ntouch ${MARKER} #`,
  `\n__import__("os").system("touch ${MARKER}")\n`,
  `\r__import__("os").system("touch ${MARKER}")#`,
  `\u2028open("${MARKER}", "w")\u2028`,
  `"+open("${MARKER}", "w").name+"`,
  `\\"); open("${MARKER}", "w") #`,
  `'); open('${MARKER}', 'w') #`,
  `\n' && touch ${MARKER} && '\n`,
];

function hostile(next: () => number, tag: string): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const parts = [tag];
  const n = 2 + Math.floor(next() * 5);
  for (let i = 0; i < n; i++) parts.push(next() < 0.5 ? pick(PIECES) : pick(PAYLOADS));
  parts.push(pick(PAYLOADS));
  const s = parts.join('');
  return next() < 0.1 ? s + 'x'.repeat(3000) + pick(PAYLOADS) : s;
}

const layer = (name: string): PlanLayer => ({
  name,
  params: 1_000_000,
  forwardUs: {},
  backwardUs: {},
  outBytesPerSample: 0,
  activationBytesPerSample: 0,
});

const device = (machine: string, key: string, name: string): PlanDevice => ({
  id: `${machine}/${key}`,
  name,
  kind: key === 'cpu' ? 'cpu' : 'gpu',
  machine,
  memoryBytes: 24 * 2 ** 30,
  estimate: 'profiled',
});

interface Case {
  name: string;
  input: ExportInput;
  workload: string;
  /** A machine label that is no Slurm node name: a training plan's emit is refused (a serving plan writes no Slurm script). */
  refused: boolean;
}

/** Two machines, a GPU model each (a heterogeneous job), 2 stages x 2 replicas; names from `next`. */
function hostileCase(seed: number, hostileLabels: boolean): Case {
  const next = seededRandom(seed);
  const labels = hostileLabels ? [hostile(next, 'm0'), `node-${seed}`] : [`node-${seed}a`, `node-${seed}b`];
  const names = [hostile(next, 'gpu0'), hostile(next, 'gpu1')];
  const devices = labels.flatMap((m, i) =>
    [0, 1].map((g) => device(m, next() < 0.15 && g === 1 ? 'cpu' : `cuda:${g}`, names[i] as string)),
  );
  const layers = Array.from({ length: 6 }, (_, i) => layer(next() < 0.8 ? hostile(next, `l${i}`) : `block.${i}`));
  const mode = next() < 0.5 ? 'inference' : 'training';
  // Half the inference plans serve a decoder: each engine's launch line, with a hostile model name.
  const serving =
    mode === 'inference' && next() < 0.5
      ? { engine: ENGINE_NAMES[seed % ENGINE_NAMES.length], model: hostile(next, 'model'), prompt: 512, tokens: 64 }
      : undefined;
  const plan = pipelinePlan(
    [0, 3, 6],
    [0, 1].map((m) => devices.filter((d) => d.machine === labels[m]).map((d) => d.id)),
    4,
  );
  return {
    name: `seed ${seed}${hostileLabels ? ' (label)' : ''}`,
    input: { plan, problem: { layers, devices, mode, batch: 16, zeroStage: 1 }, ...(serving ? { serving } : {}) },
    workload: hostile(next, 'w'),
    refused: hostileLabels && !serving,
  };
}

const CASES: Case[] = [
  ...Array.from({ length: 24 }, (_, i) => hostileCase(1000 + i, false)),
  ...Array.from({ length: 8 }, (_, i) => hostileCase(2000 + i, true)),
];

function timeline(input: ExportInput): SimEvent[] {
  return input.plan.stages.map((s, stage) => ({
    stage,
    device: input.problem.devices.find((d) => d.id === s.devices[0])?.name ?? '',
    microbatch: 0,
    phase: 'forward',
    startUs: 0,
    endUs: 10,
  }));
}

function response(c: Case): PlanResponse {
  return {
    workload: c.workload,
    problem: { ...c.input.problem, links: [], bytesPerParam: 2, overheadBytes: 0 },
    exports: exportPlan(c.input),
    timeline: timeline(c.input),
  } as unknown as PlanResponse;
}

const STUBS = path.join(ROOT, 'bin');
const PYSTUBS = path.join(ROOT, 'py');

/** No-op launchers; srun runs its command (the job's inner script); hostname answers $STUB_HOST. */
function writeStubs(): void {
  mkdirSync(STUBS, { recursive: true });
  const stub = (name: string, body: string): void => {
    writeFileSync(path.join(STUBS, name), `#!/bin/bash\n${body}\n`);
    chmodSync(path.join(STUBS, name), 0o755);
  };
  for (const name of [
    'sbatch',
    'torchrun',
    'deepspeed',
    'python',
    'python3',
    'nvidia-smi',
    'vllm',
    'llama-server',
    'trtllm-serve',
    'text-generation-launcher',
  ])
    stub(name, 'exit 0');
  stub('srun', 'while [[ "${1:-}" == --* ]]; do shift; done\nexec "$@"');
  stub('scontrol', 'echo "$STUB_HOST"');
  stub('hostname', 'echo "$STUB_HOST"');
  const module = [
    'class _Meta(type):',
    '    def __getattr__(cls, name):',
    '        return cls',
    'class _Stub(metaclass=_Meta):',
    '    def __init__(self, *args, **kwargs):',
    '        pass',
    '    def __getattr__(self, name):',
    '        return _Stub()',
    '    def __call__(self, *args, **kwargs):',
    '        return _Stub()',
    '    def __iter__(self):',
    '        return iter([])',
    '    def __enter__(self):',
    '        return self',
    '    def __exit__(self, *args):',
    '        return False',
    'def __getattr__(name):',
    '    return _Meta(name, (_Stub,), {})',
    '',
  ].join('\n');
  const packages = [
    'torch',
    'torch/nn',
    'torch/utils',
    'torch/distributed',
    'torch/distributed/tensor',
    'deepspeed',
    'deepspeed/runtime',
    'transformers',
  ];
  const packagesPipe = ['deepspeed/runtime/pipe'];
  for (const p of [...packages, ...packagesPipe]) {
    mkdirSync(path.join(PYSTUBS, p), { recursive: true });
    writeFileSync(path.join(PYSTUBS, p, '__init__.py'), module);
  }
  for (const m of [
    'torch/nn/functional',
    'torch/utils/checkpoint',
    'torch/distributed/device_mesh',
    'torch/distributed/fsdp',
    'torch/distributed/optim',
    'torch/distributed/pipelining',
    'torch/distributed/tensor/parallel',
    'deepspeed/pipe',
    'deepspeed/runtime/pipe/topology',
  ])
    writeFileSync(path.join(PYSTUBS, `${m}.py`), module);
}

/** Runs each file: shell under bash with the stubs first on PATH, Python with the stub packages. */
const RUNNER = `
import runpy, sys, traceback
failed = 0
for path in sys.argv[1:]:
    try:
        compile(open(path, encoding="utf-8").read(), path, "exec")
        runpy.run_path(path, init_globals={"layers": [], "loss_fn": None}, run_name="emitted")
    except BaseException:
        failed += 1
        print("FAILED", path, traceback.format_exc(limit=1), file=sys.stderr)
sys.exit(1 if failed else 0)
`;

function runShell(file: string, host: string): { code: number | null; stderr: string } {
  const r = spawnSync('bash', [file], {
    cwd: path.dirname(file),
    env: {
      PATH: `${STUBS}:/usr/bin:/bin`,
      STUB_HOST: host,
      HOME: ROOT,
      // megatron.sh changes into the Megatron-LM checkout first.
      MEGATRON_LM: path.dirname(file),
      SLURM_JOB_NODELIST: host,
      SLURM_JOB_NODELIST_HET_GROUP_0: host,
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, stderr: r.stderr };
}

/** sbatch reads #SBATCH lines up to the first line that is not a comment: only the directives the export writes, with bare values. */
function sbatchDirectiveProblems(name: string, sbatch: string): string[] {
  const lines = sbatch.split('\n');
  const end = lines.findIndex((l, i) => i > 0 && !l.startsWith('#'));
  const node = '[A-Za-z0-9][A-Za-z0-9._-]*';
  const directive = new RegExp(
    `^#SBATCH (--job-name=[A-Za-z0-9._-]+|--time=[0-9:-]+|hetjob|--gres=gpu:\\d+|` +
      `--nodes=\\d+ --nodelist=${node}(,${node})* --ntasks-per-node=1)$`,
  );
  return lines
    .slice(0, end)
    .filter((l) => /^#\s*SBATCH/i.test(l) && !directive.test(l))
    .map((l) => `${name}: job.sbatch directive ${JSON.stringify(l)}`);
}

describe('hostile names in emitted files', () => {
  writeStubs();

  it('each rule keeps the text one line, or refuses it', () => {
    for (const s of ['a\nb', 'a\rb', 'a\u2028b', 'a\0b', 'a\u0085b', 'a\u202eb', 'a\x1bb']) {
      expect(commentText(s)).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
      expect(pythonString(s)).toMatch(/^"[\x20-\x7e]*"$/);
      expect(slurmNodeNameRefusal(s)).toMatch(/control character U\+[0-9A-F]{4}/);
    }
    expect(commentText('x'.repeat(5000)).length).toBeLessThan(300);
    expect(pythonString('a"b\\c\u00e9')).toBe('"a\\"b\\\\c\\u00e9"');
    expect(slurmNodeNameRefusal('node-1.cluster_a')).toBeNull();
    expect(slurmNodeNameRefusal('my box')).toBe('a space');
    expect(slurmNodeNameRefusal('a,b')).toBe('the character ","');
    expect(slurmNodeNameRefusal('-x')).toBe('a leading "-"');
    expect(slurmNodeNameRefusal('')).toBe('empty');
    expect(shellQuote('a\0b')).not.toContain('\0');
  });

  it('runs no injected command from any emitted file, and bash and Python accept each', () => {
    const failures: string[] = [];
    const pythonFiles: string[] = [];
    const yamlFiles: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const dir = path.join(ROOT, `case-${i}`);
      mkdirSync(dir, { recursive: true });
      const r = response(c);
      let files: { name: string; text: string }[];
      try {
        files = planFiles(r);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (!c.refused) failures.push(`${c.name}: refused: ${JSON.stringify(message)}`);
        else if (!/^plan --emit: machine label ".*" cannot be a Slurm node name \(.+\); /.test(message))
          failures.push(`${c.name}: refusal is not one line: ${JSON.stringify(message)}`);
        // What the app shows and the CLI prints still runs nothing.
        const e2 = r.exports?.kind === 'training' ? r.exports : null;
        files = [
          { name: 'torchrun.sh', text: `#!/bin/sh\n${e2?.torch.commands.join('\n') ?? ''}\n` },
          { name: 'deepspeed.sh', text: `#!/bin/sh\n${e2?.deepspeed.commands.join('\n') ?? ''}\n` },
          { name: 'megatron.sh', text: `#!/bin/sh\n${e2?.megatron.commands.join('\n') ?? ''}\n` },
          { name: 'job.sbatch', text: e2?.slurm.sbatch ?? '' },
          { name: 'pipeline_module.py', text: e2?.deepspeed.pipelineModule ?? '' },
          { name: 'train_pipeline.py', text: e2?.torch.python ?? '' },
        ];
      }
      if (c.refused && files.some((f) => f.name === 'README.txt'))
        failures.push(`${c.name}: a machine label that is no node name was emitted`);
      const host = c.input.problem.devices[0]?.machine ?? '';
      for (const f of files) {
        const file = path.join(dir, f.name);
        writeFileSync(file, f.text);
        if (f.name.endsWith('.py')) pythonFiles.push(file);
        if (/\.ya?ml$/.test(f.name)) yamlFiles.push(file);
        if (f.name.endsWith('.json')) {
          try {
            JSON.parse(f.text);
          } catch {
            failures.push(`${c.name}: ${f.name} is not JSON`);
          }
        }
        if (f.name === 'README.txt' || f.name === 'hostfile') {
          if (/[\0\r\u2028\u2029\u0085]/.test(f.text)) failures.push(`${c.name}: ${f.name} holds a control character`);
        }
        if (f.name === 'hostfile' && !/^([A-Za-z0-9][A-Za-z0-9._-]* slots=\d+\n)+$/.test(f.text))
          failures.push(`${c.name}: hostfile ${JSON.stringify(f.text)}`);
        if (f.name === 'job.sbatch' && !c.refused) failures.push(...sbatchDirectiveProblems(c.name, f.text));
        if (!f.name.endsWith('.sh') && !f.name.endsWith('.sbatch')) continue;
        const syntax = spawnSync('bash', ['-n', file], { encoding: 'utf8', timeout: 20_000 });
        if (syntax.status !== 0) failures.push(`${c.name}: bash -n ${f.name}: ${syntax.stderr}`);
        const ran = runShell(file, host);
        const refusedSbatch = c.refused && f.name === 'job.sbatch';
        if (ran.code !== (refusedSbatch ? 1 : 0))
          failures.push(`${c.name}: bash ${f.name} exit ${ran.code}: ${ran.stderr}`);
        if (existsSync(MARKER)) {
          failures.push(`${c.name}: ${f.name} ran an injected command`);
          rmSync(MARKER);
        }
      }
    }
    const py = spawnSync(PYTHON, ['-c', RUNNER, ...pythonFiles], {
      env: { PYTHONPATH: PYSTUBS, PATH: `${STUBS}:/usr/bin:/bin`, PYTHONDONTWRITEBYTECODE: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (py.status !== 0) failures.push(`python: ${py.stderr.slice(0, 4000)}`);
    if (existsSync(MARKER)) failures.push('an emitted Python file ran an injected command');
    const yaml = spawnSync(
      PYTHON,
      ['-c', 'import sys, yaml\nfor p in sys.argv[1:]:\n    yaml.safe_load(open(p, encoding="utf-8"))', ...yamlFiles],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (yaml.status !== 0) failures.push(`yaml: ${yaml.stderr.slice(0, 4000)}`);
    expect(failures).toEqual([]);
    const training = CASES.filter((c) => !c.input.serving).length;
    expect(pythonFiles.length).toBeGreaterThanOrEqual(2 * training);
    // Every serving engine wrote its launch line from a hostile model name.
    expect(
      new Set(CASES.flatMap((c) => (c.input.serving?.engine ? [c.input.serving.engine] : []))).size,
    ).toBeGreaterThan(2);
    // Bash and Python run every file of every case: minutes on a busy machine.
  }, 180_000);

  it('keeps the trace JSON and its names as they were', () => {
    const c = CASES[0] as Case;
    const trace = planFiles(response(c)).find((f) => f.name === 'timeline.trace.json');
    const parsed = JSON.parse(trace?.text ?? '') as { otherData: { title: string } };
    expect(parsed.otherData.title.startsWith(c.workload)).toBe(true);
    execFileSync(PYTHON, ['-c', 'import json,sys; json.load(sys.stdin)'], { input: trace?.text ?? '' });
  });
});
