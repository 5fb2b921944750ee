/**
 * `plan`'s options as the plan request, by the table of plan-request-options.ts: every field of the
 * request's schema is read from an option or said not to be; every field read arrives in the
 * request and, past the service's defaults, in the resolved one; and what the schema refuses is
 * the CLI's one line naming the option and the text given.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../../src-main/cli/args.js';
import { planCommand } from '../../../src-main/cli/commands/plan.js';
import { PLAN_OPTION_ROWS, planRequestOf } from '../../../src-main/cli/plan-request-options.js';
import { ENGINE_CHOICES } from '../../../src-main/core/engines/engine-names.js';
import { PLAN_REQUEST, type PlanRequest } from '../../../src-main/core/planner/plan-request.js';
import { openDatabase } from '../../../src-main/adapters/store/open-database.js';
import { planProblem } from '../../../src-main/services/plan/plan-problem.js';
import { resolvePlanRequest, withDefaults } from '../../../src-main/services/plan/resolve-request.js';

const requestOf = (args: string[]): PlanRequest => planRequestOf(parseCommandArgs(planCommand, args).opts);

const folder = mkdtempSync(path.join(os.tmpdir(), 'pdjv-options-'));
const linksFile = path.join(folder, 'links.txt');
writeFileSync(linksFile, 'rack1-* rack1-* 200Gb-IB\n');
const ncclFile = path.join(folder, 'pair.log');
writeFileSync(ncclFile, '# nccl-tests\n');

const BASE = ['--workload', 'gpt2-small'];

/** Each field given through its option, and the value it must arrive as; or why no option gives it. */
const FIELDS = {
  workload: { args: ['--workload', 'bert-base'], value: 'bert-base' },
  decoder: 'read from the workload file (plan.ts: withDescribedModel)',
  batch: { args: ['--batch', '3'], value: 3 },
  seq: { args: ['--seq', '64'], value: 64 },
  image: { args: ['--image', '128'], value: 128 },
  dtype: { args: ['--dtype', 'bf16'], value: 'bf16' },
  dims: { args: ['--dim', 'n=2'], value: { n: 2 } },
  inputs: { args: ['--input', 'x=1x3'], value: { x: [1, 3] } },
  devices: { args: ['--devices', 'cpu'], value: 'cpu' },
  mode: { args: ['--mode', 'inference'], value: 'inference' },
  machine: { args: ['--machine', 'box'], value: 'box' },
  virtual: { args: ['--virtual', '2xRTX 4090, H100 SXM5,'], value: ['2xRTX 4090', 'H100 SXM5'] },
  network: { args: ['--network', '25GbE'], value: '25GbE' },
  links: { args: ['--links', linksFile], value: { source: 'links.txt', text: 'rack1-* rack1-* 200Gb-IB\n' } },
  nccl: { args: ['--nccl', ncclFile], value: [{ source: 'pair.log', text: '# nccl-tests\n' }] },
  topN: { args: ['--top', '2'], value: 2 },
  offload: { args: ['--offload', 'no'], value: 'no' },
  zero: { args: ['--zero', 'fsdp'], value: 3 },
  stack: { args: ['--stack', 'Megatron'], value: 'megatron' },
  attention: { args: ['--attention', 'unfused'], value: 'unfused' },
  recompute: { args: ['--recompute', 'full'], value: 'full' },
  tp: { args: ['--tp', '1,2,2'], value: [1, 2] },
  layout: { args: ['--layout', 'tp=1'], value: 'tp=1' },
  search: { args: ['--layout', 'tp=1', '--no-search'], value: false },
  weights: { args: ['--mode', 'inference', '--weights', 'q4_k'], value: 'q4_k' },
  engine: { args: ['--engine', ' vLLM '], value: 'vllm' },
  engineVersion: "the engine benches' (bench/engines): no option, and plan:create does not take it",
  engineSettings: "the engine benches' (bench/engines): no option, and plan:create does not take it",
  kvCache: { args: ['--kv-cache', 'fp8'], value: 'fp8' },
  load: { args: ['--rate', '2.5', '--requests', '9'], value: { kind: 'rate', perSecond: 2.5, requests: 9 } },
  objective: { args: ['--objective', 'throughput'], value: 'throughput' },
  tokens: { args: ['--tokens', '9'], value: 9 },
  prompt: { args: ['--prompt', '90'], value: 90 },
  finetune: {
    args: ['--mode', 'finetune', '--adapter', 'qlora', '--rank', '8', '--targets', 'q,v_proj'],
    value: { adapter: 'qlora', rank: 8, targets: ['q', 'v'] },
  },
} satisfies { [F in keyof PlanRequest]-?: { args: string[]; value: PlanRequest[F] } | string };

/** `plan`'s options that are not the request's: where the best plan's files go. */
const NOT_REQUEST_OPTIONS = ['emit', 'force'];

const cases = Object.entries(FIELDS).flatMap(([field, c]) =>
  typeof c === 'string' ? [] : [{ field: field as keyof PlanRequest, ...c }],
);

describe("plan's options as the plan request", () => {
  it('reads every field of the schema from an option, or says why none gives it', () => {
    const read = new Set(PLAN_OPTION_ROWS.map((r) => r.field));
    for (const field of Object.keys(PLAN_REQUEST.shape) as (keyof PlanRequest)[]) {
      const said = FIELDS[field];
      expect(read.has(field), field).toBe(typeof said !== 'string');
    }
    // One row per field.
    expect(read.size).toBe(PLAN_OPTION_ROWS.length);
  });

  it("reads every one of plan's options into the request, but where the files go", () => {
    const options = new Set(PLAN_OPTION_ROWS.flatMap((r) => r.options));
    for (const option of Object.keys(planCommand.options))
      expect(options.has(option) || NOT_REQUEST_OPTIONS.includes(option), option).toBe(true);
  });

  it.each(cases)(
    '$field arrives in the request and, past the defaults, in the resolved one',
    ({ field, args, value }) => {
      const without = requestOf(BASE);
      const given = requestOf([...BASE, ...args]);
      expect(given[field]).toEqual(value);
      expect(withDefaults(given)[field]).toEqual(value);
      // The option changed the field: the value is not the one the request has without it.
      expect(without[field]).not.toEqual(value);
      expect(withDefaults(without)[field]).not.toEqual(value);
    },
  );

  it('leaves the defaults to the service: a bare request names only the workload and the mode', () => {
    expect(requestOf(BASE)).toEqual({ workload: 'gpt2-small', mode: 'training' });
    expect(withDefaults(requestOf(BASE))).toMatchObject({ batch: 8, devices: 'all', topN: 5, offload: 'auto' });
    expect(withDefaults(requestOf([...BASE, '--mode', 'inference'])).batch).toBe(1);
  });

  it("says in the CLI's words what the schema refuses, naming the option and the text", () => {
    const refusals: [string[], string][] = [
      [['--mode', 'generate'], '--mode takes training, inference or finetune; got "generate"'],
      [['--offload', 'maybe'], '--offload takes auto, yes or no; got "maybe"'],
      [['--recompute', 'sometimes'], '--recompute takes auto, none, selective or full; got "sometimes"'],
      [['--attention', 'flash'], '--attention takes fused or unfused; got "flash"'],
      [
        ['--zero', 'full'],
        '--zero takes auto, a ZeRO stage 0, 1, 2 or 3, fsdp (= 3) or fsdp-grad-op (= 2); got "full"',
      ],
      [['--zero', '4'], '--zero takes auto, a ZeRO stage 0, 1, 2 or 3, fsdp (= 3) or fsdp-grad-op (= 2); got "4"'],
      [['--dtype', 'int8'], '--dtype takes fp32, fp16, bf16 or fp8; got "int8"'],
      [['--objective', 'fast'], '--objective takes latency or throughput; got "fast"'],
      [['--weights', 'q3'], '--weights takes fp32, fp16, bf16, int8, fp8, q8_0, int4, q4_k, q4_0; got "q3"'],
      [['--kv-cache', 'fp16'], '--kv-cache takes auto or fp8; got "fp16"'],
      [['--engine', 'vlm'], `--engine takes ${ENGINE_CHOICES.join(', ')}; got "vlm"`],
      [['--rate', '0'], '--rate takes requests per second above 0, at most 100000; got "0"'],
      [['--rate', 'fast'], '--rate takes requests per second above 0, at most 100000; got "fast"'],
      [['--mode', 'finetune'], '--mode finetune needs --adapter lora or qlora'],
      [['--mode', 'finetune', '--adapter', 'dora'], '--mode finetune needs --adapter lora or qlora; got "dora"'],
      [
        ['--mode', 'finetune', '--adapter', 'lora', '--alpha', '0'],
        '--alpha takes a number above 0, at most 1000000; got "0"',
      ],
      [
        ['--mode', 'finetune', '--adapter', 'lora', '--stack', 'axolotl'],
        '--stack takes peft, torchtune, unsloth; got "axolotl"',
      ],
      [['--rank', '8'], '--rank is for --mode finetune'],
      [['--concurrency', '2', '--rate', '1'], 'give --concurrency or --rate, not both'],
      [['--requests', '2'], '--requests goes with --concurrency or --rate'],
      [['--tp', '1,,2'], '--tp takes degrees like 1,2,4,8; got "1,,2"'],
    ];
    for (const [args, line] of refusals) {
      let message = '';
      try {
        requestOf([...BASE, ...args]);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, args.join(' ')).toBe(line);
    }
    expect(() => requestOf(['--batch', '2'])).toThrow('plan: --workload is required');
  });
});

describe('a request read from the options reaches the problem', () => {
  const problemOf = (args: string[]) => {
    const db = openDatabase(':memory:');
    const resolved = resolvePlanRequest(db, requestOf(args), []);
    return { resolved, problem: planProblem(db, resolved, []) };
  };

  it('training: the batch, the ZeRO stage and the tensor degrees asked', () => {
    const args = ['--workload', 'gpt2-small', '--devices', 'none', '--virtual', '2xRTX 4090', '--seq', '64'];
    const { problem } = problemOf([...args, '--batch', '3', '--zero', 'fsdp-grad-op', '--tp', '1,2']);
    expect(problem).toMatchObject({ mode: 'training', batch: 3, zeroStage: 2, tensorDegrees: [1, 2] });
  });

  it('serving: the weight format, and the assumptions named (sequence, dtype, engine)', () => {
    const args = ['--workload', 'gpt2-small', '--mode', 'inference', '--devices', 'none', '--virtual', 'RTX 4090'];
    const { resolved, problem } = problemOf([...args, '--dtype', 'fp16', '--weights', 'int8', '--tokens', '24']);
    expect(problem).toMatchObject({ mode: 'inference', batch: 1, weights: 'int8' });
    expect(resolved.assumptions).toMatchObject({
      // GPT-2's context of 1024 less the 24 output tokens: the default prompt of 1024 does not fit.
      sequence: 1000,
      dtype: 'fp16',
      served: { prompt: 1000, tokens: 24, objective: 'latency' },
      finetune: null,
      batch: 1,
    });
    expect(resolved.assumptions.engine?.summary.name).toBe('vllm');
  });
});
