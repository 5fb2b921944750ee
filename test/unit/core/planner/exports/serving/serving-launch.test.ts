/**
 * Every launch line the product can emit passes its engine's argument parser as the fixture of
 * test/fixtures/engines/ records it at the named version: each engine x every format it loads x
 * tensor parallelism 1/2/4/8 x pipeline stages x replicas x several machines x an fp8 KV cache.
 * Config files are checked key by key (parsed by Debian's python3-yaml), the transformers script
 * call by call and byte-compiled by /usr/bin/python3. The checker itself refuses wrong flags, and
 * hostile model names stay one quoted word.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_FORMATS } from '../../../../../../src-main/core/engines/engine-formats.js';
import { ENGINE_NAMES, type EngineName } from '../../../../../../src-main/core/engines/engine-names.js';
import type { PlanDevice } from '../../../../../../src-main/core/planner/types.js';
import type { WeightFormat } from '../../../../../../src-main/core/workload/generation.js';
import {
  servingLaunch,
  type ServingLaunch,
  type ServingLaunchInput,
} from '../../../../../../src-main/core/planner/exports/serving/serving-launch.js';
import {
  checkCommand,
  checkConfig,
  checkPythonCalls,
  loadFixture,
  splitShell,
  type EngineFixture,
} from '../../../../../helpers/engine-flags.js';
import { needOracle, ORACLE_PYTHON } from '../../../../../helpers/oracle.js';
import { tempDir } from '../../../../../helpers/cli.js';
import { planGpu } from '../../../../../helpers/plan-exports.js';

const yamlOracle = needOracle('yaml');
const pythonOracle = needOracle('python');

const FIXTURES = Object.fromEntries(ENGINE_NAMES.map((e) => [e, loadFixture(e)])) as Record<EngineName, EngineFixture>;

const gpu = (machine: string, i: number, name = 'NVIDIA H100 80GB HBM3'): PlanDevice =>
  planGpu(machine, i, name, 80, 'datasheet');

interface Layout {
  name: string;
  tp: number;
  pp: number;
  replicas: number;
  machines: number;
}

const LAYOUTS: Layout[] = [
  { name: 'one GPU', tp: 1, pp: 1, replicas: 1, machines: 1 },
  { name: 'TP2', tp: 2, pp: 1, replicas: 1, machines: 1 },
  { name: 'TP4', tp: 4, pp: 1, replicas: 1, machines: 1 },
  { name: 'TP8', tp: 8, pp: 1, replicas: 1, machines: 1 },
  { name: 'PP2', tp: 1, pp: 2, replicas: 1, machines: 1 },
  { name: 'TP2 x PP2', tp: 2, pp: 2, replicas: 1, machines: 1 },
  { name: 'TP2 x 2 replicas', tp: 2, pp: 1, replicas: 2, machines: 1 },
  { name: 'TP4 x PP2 on two machines', tp: 4, pp: 2, replicas: 1, machines: 2 },
];

/** The launch input of a layout: GPUs in rank order (stage-major), 32 layers split evenly over the stages. */
function launchInput(
  engine: EngineName,
  weights: WeightFormat,
  l: Layout,
  over: Partial<ServingLaunchInput> = {},
): ServingLaunchInput {
  const n = l.tp * l.pp * l.replicas;
  const perMachine = n / l.machines;
  const devices = Array.from({ length: n }, (_, i) =>
    gpu(l.machines > 1 ? `node${Math.floor(i / perMachine)}` : 'lab', i % perMachine),
  );
  const split =
    l.pp > 1
      ? { mode: 'layer' as const, shares: Array.from({ length: l.pp }, () => 32 / l.pp) }
      : l.tp > 1
        ? { mode: 'row' as const, shares: Array.from({ length: l.tp }, () => 1) }
        : undefined;
  return {
    engine,
    model: 'meta-llama/Llama-3.1-8B-Instruct',
    dtype: 'bf16',
    weights,
    kvCacheDtype: 'auto',
    maxModelLen: 4096,
    maxNumSeqs: 16,
    gpuMemoryUtilization: 0.9,
    tp: l.tp,
    pp: l.pp,
    replicas: l.replicas,
    ...(split ? { split } : {}),
    devices,
    layers: 32,
    promptTokens: 3072,
    ...over,
  };
}

/** YAML texts as python3-yaml reads them, in one process. */
function loadYamls(texts: string[]): unknown[] {
  if (texts.length === 0) return [];
  const r = spawnSync(
    ORACLE_PYTHON,
    ['-c', 'import json, sys, yaml\nprint(json.dumps([yaml.safe_load(t) for t in json.load(sys.stdin)]))'],
    { input: JSON.stringify(texts), encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as unknown[];
}

/** Every problem of a launch against its engine's fixture: the command, then each file it reads. */
function launchProblems(launch: ServingLaunch): string[] {
  const fixture = FIXTURES[launch.engine];
  const problems = checkCommand(launch.command, fixture);
  const yamls = launch.files.filter((f) => /\.ya?ml$/.test(f.name));
  loadYamls(yamls.map((f) => f.text)).forEach((config, i) =>
    problems.push(...checkConfig(config, fixture).map((p) => `${yamls[i]?.name}: ${p}`)),
  );
  for (const f of launch.files.filter((x) => x.name.endsWith('.py')))
    problems.push(...checkPythonCalls(f.text, fixture).map((p) => `${f.name}: ${p}`));
  return problems;
}

describe('every launch line passes its engine parser', () => {
  const cases = ENGINE_NAMES.flatMap((engine) => LAYOUTS.map((layout) => ({ engine, layout })));
  it.skipIf(!yamlOracle).each(cases)(
    '$engine, $layout.name: every format it loads, KV cache auto and fp8',
    ({ engine, layout }) => {
      const problems: string[] = [];
      for (const weights of ENGINE_FORMATS[engine])
        for (const kvCacheDtype of ['auto', 'fp8'] as const)
          for (const maxBatchedTokens of [undefined, 8192]) {
            const launch = servingLaunch(
              launchInput(engine, weights, layout, { kvCacheDtype, ...(maxBatchedTokens ? { maxBatchedTokens } : {}) }),
            );
            expect(launch.command, `${weights}`).not.toBe('');
            expect(launch.version).not.toBe('');
            problems.push(...launchProblems(launch).map((p) => `${weights}, kv ${kvCacheDtype}: ${p}`));
          }
      expect(problems).toEqual([]);
    },
  );

  it('names, in each fixture, the repository, commit or tag, paths and version it was read from', () => {
    for (const f of Object.values(FIXTURES)) {
      expect(f.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(f.source.paths.length).toBeGreaterThan(0);
      expect(f.version.length).toBeGreaterThan(3);
      expect(f.about.length).toBeGreaterThan(100);
      if (f.engine !== 'transformers') expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
    }
  });
});

describe('the checker refuses what the engine parser would', () => {
  const BAD: { name: string; engine: EngineName; command: string; problem: RegExp }[] = [
    {
      name: 'an unknown flag',
      engine: 'vllm',
      command: 'vllm serve m --tensor-parallel-sizes 2',
      problem: /no such flag/,
    },
    {
      name: 'a value after a switch',
      engine: 'vllm',
      command: 'vllm serve m --enable-expert-parallel 2',
      problem: /positional/,
    },
    {
      name: 'a choice not listed',
      engine: 'vllm',
      command: 'vllm serve m --kv-cache-dtype fp9',
      problem: /not one of/,
    },
    { name: 'a word for an int', engine: 'vllm', command: 'vllm serve m --max-model-len 4k', problem: /no int/ },
    { name: 'a missing value', engine: 'llama.cpp', command: 'llama-server -m m.gguf -ngl', problem: /takes a value/ },
    {
      name: 'a split mode not listed',
      engine: 'llama.cpp',
      command: 'llama-server -m m.gguf -sm rows',
      problem: /not one of/,
    },
    {
      name: 'a flag of another engine',
      engine: 'tensorrt-llm',
      command: 'trtllm-serve m --tp-size 2',
      problem: /no such flag/,
    },
    {
      name: 'a quantization TGI lacks',
      engine: 'tgi',
      command: 'text-generation-launcher --model-id m --quantize int4',
      problem: /not one of/,
    },
    { name: 'another program', engine: 'vllm', command: 'vllm run m', problem: /not vllm serve/ },
    {
      name: 'an unquoted substitution',
      engine: 'vllm',
      command: 'X=$(touch y) vllm serve m',
      problem: /metacharacter/,
    },
    {
      name: 'a float for an int',
      engine: 'sglang',
      command: 'python3 -m sglang.launch_server --model-path m --tp-size 1.5',
      problem: /no int/,
    },
  ];
  it.each(BAD)('$name ($engine)', ({ engine, command, problem }) => {
    expect(checkCommand(command, FIXTURES[engine]).join('\n')).toMatch(problem);
  });

  it('passes a line its parser takes, with --flag=value and quoted words', () => {
    expect(
      checkCommand("CUDA_VISIBLE_DEVICES=0,1 vllm serve 'my model' --tensor-parallel-size=2 -pp 1", FIXTURES.vllm),
    ).toEqual([]);
    expect(
      checkCommand('llama-server -m m.gguf -ngl 33 -sm row -ts 1,1 -c 8192 -np 2 -fa on', FIXTURES['llama.cpp']),
    ).toEqual([]);
  });

  it('refuses unknown config keys, wrong types and values key by key', () => {
    const tabby = FIXTURES.exllamav2;
    expect(checkConfig({ model: { model_name: 'x', cache_mode: 'Q8', max_seq_len: 4096 } }, tabby)).toEqual([]);
    expect(checkConfig({ model: { cache_mode: 'Q3' } }, tabby).join()).toMatch(/not one of/);
    expect(checkConfig({ model: { gpu_splits: [20] } }, tabby).join()).toMatch(/no such key/);
    expect(checkConfig({ model: { max_seq_len: '4k' } }, tabby).join()).toMatch(/no int/);
    const trt = FIXTURES['tensorrt-llm'];
    expect(checkConfig({ kv_cache_config: { dtype: 'fp8', free_gpu_memory_fraction: 0.9 } }, trt)).toEqual([]);
    expect(checkConfig({ kv_cache_config: { dtype: 'fp8', free_gpu_memory: 0.9 } }, trt).join()).toMatch(/no such key/);
  });

  it('refuses a keyword the transformers call does not take', () => {
    const script =
      'model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtypes=torch.bfloat16, device_map="auto")';
    expect(checkPythonCalls(script, FIXTURES.transformers).join()).toMatch(/no keyword torch_dtypes/);
    expect(checkPythonCalls(script.replace('torch_dtypes', 'dtype'), FIXTURES.transformers)).toEqual([]);
    expect(
      checkPythonCalls(
        'x = AutoModelForCausalLM.from_pretrained(MODEL, device_map="everywhere")',
        FIXTURES.transformers,
      ).join(),
    ).toMatch(/not one of/);
  });
});

const ONE = LAYOUTS[0] as Layout;
const words = (l: ServingLaunch): string[] => splitShell(l.command);
const after = (l: ServingLaunch, name: string): string | undefined => words(l)[words(l).indexOf(name) + 1];

describe('what each format becomes', () => {
  it('q4_k on llama.cpp: the GGUF file of its type, the llama-quantize line, -c for every slot', () => {
    const l = servingLaunch(launchInput('llama.cpp', 'q4_k', ONE));
    expect(after(l, '-m')).toBe('Llama-3.1-8B-Instruct-Q4_K_M.gguf');
    expect(l.warnings.join(' ')).toMatch(
      /llama-quantize Llama-3\.1-8B-Instruct-F16\.gguf Llama-3\.1-8B-Instruct-Q4_K_M\.gguf Q4_K_M/,
    );
    expect(after(l, '-c')).toBe(String(4096 * 16));
    expect(after(l, '-np')).toBe('16');
    expect(after(l, '-ngl')).toBe('33');
    const fp8 = servingLaunch(launchInput('llama.cpp', 'q8_0', ONE, { kvCacheDtype: 'fp8' }));
    expect([after(fp8, '-ctk'), after(fp8, '-ctv'), after(fp8, '-fa')]).toEqual(['q8_0', 'q8_0', 'on']);
  });

  it('llama.cpp: -fa states the attention priced, on or off (the version defaults to auto), and its parser takes both', () => {
    for (const [flashAttention, fa] of [
      [true, 'on'],
      [false, 'off'],
    ] as const) {
      const l = servingLaunch(launchInput('llama.cpp', 'q4_k', ONE, { flashAttention }));
      expect(words(l).filter((w) => w === '-fa')).toHaveLength(1);
      expect(after(l, '-fa')).toBe(fa);
      expect(checkCommand(l.command, FIXTURES['llama.cpp'])).toEqual([]);
    }
    const refused = servingLaunch(
      launchInput('llama.cpp', 'q8_0', ONE, { kvCacheDtype: 'fp8', flashAttention: false }),
    );
    expect(refused.warnings.join(' ')).toMatch(/refuses a quantized V cache without flash attention \(-fa off\)/);
  });

  const VLLM: { weights: WeightFormat; flags: string[]; warning?: RegExp }[] = [
    { weights: 'bf16', flags: ['--dtype', 'bfloat16'] },
    { weights: 'fp8', flags: ['--quantization', 'fp8'] },
    { weights: 'int4', flags: ['--quantization', 'awq_marlin'], warning: /gptq_marlin/ },
    { weights: 'int8', flags: [], warning: /W8A8/ },
    { weights: 'q4_k', flags: ['--quantization', 'gguf'], warning: /experimental/ },
  ];
  it.each(VLLM)('vLLM, $weights weights', ({ weights, flags, warning }) => {
    const l = servingLaunch(launchInput('vllm', weights, ONE));
    const w = words(l);
    for (let i = 0; i < flags.length; i += 2) expect(w[w.indexOf(flags[i] as string) + 1]).toBe(flags[i + 1]);
    if (weights === 'int8') expect(w).not.toContain('--quantization');
    if (warning) expect(l.warnings.join(' ')).toMatch(warning);
  });

  it('vLLM multi-step scheduling: no --num-scheduler-steps (not in the fixture version), a warning instead', () => {
    const l = servingLaunch(launchInput('vllm', 'bf16', ONE, { schedulerSteps: 10 }));
    expect(words(l).some((w) => /scheduler-steps/.test(w))).toBe(false);
    expect(l.warnings.join(' ')).toMatch(/--num-scheduler-steps 10, vLLM 0\.5\.3-0\.6\.x\) is not in vLLM 0\.11/);
    expect(servingLaunch(launchInput('vllm', 'bf16', ONE, { schedulerSteps: 1 })).warnings).toEqual(
      servingLaunch(launchInput('vllm', 'bf16', ONE)).warnings,
    );
  });

  it("an fp8 KV cache in each engine's own words", () => {
    const kv = (engine: EngineName): ServingLaunch =>
      servingLaunch(launchInput(engine, 'bf16', ONE, { kvCacheDtype: 'fp8' }));
    expect(after(kv('vllm'), '--kv-cache-dtype')).toBe('fp8');
    expect(after(kv('sglang'), '--kv-cache-dtype')).toBe('fp8_e4m3');
    expect(after(kv('tgi'), '--kv-cache-dtype')).toBe('fp8_e4m3fn');
    const trt = kv('tensorrt-llm');
    expect(after(trt, '--extra_llm_api_options')).toBe('extra_llm_api_options.yaml');
    expect(trt.files[0]?.text).toMatch(/kv_cache_config:\n {2}dtype: fp8\n/);
    expect(kv('exllamav2').files[0]?.text).toMatch(/cache_mode: Q8/);
  });

  it('a format the engine cannot load gets no command, only the refusal naming the engines that can', () => {
    const l = servingLaunch(launchInput('exllamav2', 'q4_k', ONE));
    expect(l.command).toBe('');
    expect(l.warnings).toEqual([
      expect.stringMatching(/does not load q4_k weights; vllm \(vLLM\), llama\.cpp \(llama\.cpp\) do/),
    ]);
  });

  it.skipIf(!pythonOracle)(
    'the transformers script byte-compiles with /usr/bin/python3, for every format and split',
    () => {
      const dir = tempDir();
      const files: string[] = [];
      for (const weights of ENGINE_FORMATS.transformers)
        for (const layout of LAYOUTS) {
          const l = servingLaunch(launchInput('transformers', weights, layout));
          const file = path.join(dir, `${weights}-${files.length}.py`);
          writeFileSync(file, l.files[0]?.text ?? '');
          files.push(file);
        }
      const r = spawnSync(ORACLE_PYTHON, ['-W', 'error', '-m', 'py_compile', ...files], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const int8 = servingLaunch(launchInput('transformers', 'int8', LAYOUTS[4] as Layout)).files[0]?.text ?? '';
      expect(int8).toMatch(/quantization_config=BitsAndBytesConfig\(load_in_8bit=True\)/);
      expect(int8).toMatch(/device_map="auto",\n {4}max_memory=\{0: "72GiB", 1: "72GiB"\},/);
    },
  );
});

describe('outside text in a launch line', () => {
  const ROOT = tempDir();
  const MARKER = path.join(ROOT, 'pwned');
  const NAMES = [
    `org/model\ntouch ${MARKER}`,
    `$(touch ${MARKER})`,
    `it's "quoted"; touch ${MARKER}`,
    `\`touch ${MARKER}\` \u2028 #`,
  ];
  const STUBS = path.join(ROOT, 'bin');
  mkdirSync(STUBS, { recursive: true });
  for (const p of ['vllm', 'llama-server', 'trtllm-serve', 'text-generation-launcher', 'python3']) {
    writeFileSync(path.join(STUBS, p), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(STUBS, p), 0o755);
  }
  const cases = ENGINE_NAMES.flatMap((engine) => NAMES.map((model, i) => ({ engine, model, i })));
  it.skipIf(!yamlOracle).each(cases)(
    '$engine, hostile name $i: one quoted word, run by nobody',
    ({ engine, model }) => {
      const weights = engine === 'llama.cpp' ? 'q4_k' : 'bf16';
      const l = servingLaunch(launchInput(engine, weights, ONE, { model }));
      expect(launchProblems(l)).toEqual([]);
      const w = words(l);
      if (engine !== 'llama.cpp' && engine !== 'exllamav2' && engine !== 'transformers') expect(w).toContain(model);
      const file = path.join(ROOT, 'serve.sh');
      writeFileSync(file, `#!/bin/sh\n${l.command}\n`);
      const r = spawnSync('bash', [file], { env: { PATH: `${STUBS}:/usr/bin:/bin` }, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(existsSync(MARKER)).toBe(false);
      rmSync(MARKER, { force: true });
      if (engine === 'exllamav2') {
        const [config] = loadYamls([l.files[0]?.text ?? '']) as [{ model: { model_name: string } }];
        expect(model.endsWith(config.model.model_name)).toBe(true);
      }
      if (engine === 'transformers') {
        const py = spawnSync(
          ORACLE_PYTHON,
          [
            '-c',
            'import ast, json, sys\nt = ast.parse(sys.stdin.read())\nprint(json.dumps([n.value.value for n in t.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "MODEL"][0]))',
          ],
          {
            input: l.files[0]?.text ?? '',
            encoding: 'utf8',
          },
        );
        expect(JSON.parse(py.stdout)).toBe(model);
      }
    },
  );
});
