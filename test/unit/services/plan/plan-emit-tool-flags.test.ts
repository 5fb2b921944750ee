/**
 * Every flag and config key of the training files `plan --emit` writes passes the parser of the tool
 * it targets, as test/fixtures/engines/ records it at a named version (Megatron-LM core_v0.15.0,
 * torchrun of torch 2.x, accelerate v1.14.0, DeepSpeed v0.19.5): megatron-args.txt and
 * megatron.sh's pretrain_gpt.py arguments, every torchrun line (torchrun.sh, deepspeed.sh,
 * megatron.sh, job.sbatch), the accelerate launch lines, ds_config.json and accelerate.yaml key by
 * key. The plans are the real planner's: one GPU, tensor and pipeline parallelism, ZeRO-3, an
 * offloaded optimizer, LoRA and QLoRA (launch_lora.sh, accelerate_lora.yaml), two nodes.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/adapters/store/open-database.js';
import { shellQuote } from '../../../../src-main/core/planner/exports/common.js';
import { planWorkload, type PlanRequest, type PlanResponse } from '../../../../src-main/services/plan/plan-service.js';
import { planFiles } from '../../../../src-main/services/plan/plan-emit-service.js';
import {
  checkCommand,
  checkConfig,
  loadFixture,
  splitShell,
  TRAINING_TOOLS,
  type EngineFixture,
  type TrainingTool,
} from '../../../helpers/engine-flags.js';
import { needOracle } from '../../../helpers/oracle.js';
import { oracleYaml, trainingExports } from '../../../helpers/plan-exports.js';

const yamlOracle = needOracle('yaml');
const FIXTURES = Object.fromEntries(TRAINING_TOOLS.map((t) => [t, loadFixture(t)])) as Record<
  TrainingTool,
  EngineFixture
>;

const llama: PlanRequest = {
  workload: 'llama-7b',
  devices: 'none',
  virtual: ['8xA100'],
  mode: 'training',
  batch: 8,
  seq: 2048,
  topN: 1,
};

const PLANS: { name: string; req: PlanRequest }[] = [
  { name: 'one GPU', req: { ...llama, workload: 'gpt2-medium', virtual: ['A100'], seq: 1024 } },
  { name: 'llama-7b on 8xA100', req: llama },
  { name: 'tensor-parallel 4', req: { ...llama, offload: 'no', tp: [4], zero: 0 } },
  { name: 'pipeline stages', req: { ...llama, offload: 'no', tp: [1], zero: 0 } },
  { name: 'ZeRO-3, full recomputation', req: { ...llama, tp: [1], zero: 3, recompute: 'full' } },
  { name: 'offloaded optimizer', req: { ...llama, offload: 'yes' } },
  { name: 'fp8 on H100s', req: { ...llama, virtual: ['8xH100 SXM5'], dtype: 'fp8' } },
  { name: 'LoRA on 8xA100', req: { ...llama, finetune: { adapter: 'lora' } } },
  { name: 'QLoRA on 2xA100', req: { ...llama, virtual: ['2xA100'], finetune: { adapter: 'qlora' } } },
  { name: 'two nodes of 8 A100s', req: { ...llama, virtual: ['16xA100'], batch: 32 } },
];

const planned = new Map<string, PlanResponse>();
/** The plan of a request, planned once per file. */
function plan(name: string, req: PlanRequest): PlanResponse {
  const r = planned.get(name) ?? planWorkload(openDatabase(':memory:'), req);
  planned.set(name, r);
  return r;
}

/** Shell variables the Slurm job sets before it execs the launcher, with values of a first node. */
const SLURM_VARS: Record<string, string> = { NODE_RANK: '0', NPROC: '8', MASTER_ADDR: 'node0', MASTER_PORT: '29500' };

/** The launcher words of a line (environment first, up to and including the script) and the script's words after it. */
function splitAtScript(line: string): { launcher: string; script: string; args: string[] } {
  const words = splitShell(line);
  const at = words.findIndex((w) => w.endsWith('.py'));
  if (at < 0) throw new Error(`no script in ${line}`);
  return {
    launcher: words
      .slice(0, at + 1)
      .map(shellQuote)
      .join(' '),
    script: words[at] as string,
    args: words.slice(at + 1),
  };
}

/** Every problem of one launch line: its launcher against torchrun's or accelerate's parser, pretrain_gpt.py's arguments against Megatron-LM's. */
function lineProblems(line: string): string[] {
  const { launcher, script, args } = splitAtScript(line);
  const tool: TrainingTool = splitShell(launcher).includes('accelerate') ? 'accelerate' : 'torchrun';
  const problems = checkCommand(launcher, FIXTURES[tool]);
  if (script === 'pretrain_gpt.py')
    problems.push(...checkCommand(['pretrain_gpt.py', ...args].map(shellQuote).join(' '), FIXTURES['megatron-lm']));
  return problems;
}

/** The exec line of job.sbatch as the node runs it: bash -c's quoting undone, the node's variables set. */
function slurmLine(sbatch: string): string {
  const exec = sbatch.split('\n').find((l) => l.startsWith('exec ')) ?? '';
  return exec
    .slice('exec '.length)
    .replace(/'\\''/g, "'")
    .replace(/"\$(\w+)"/g, (_, v: string) => SLURM_VARS[v] ?? `$${v}`);
}

describe('the training files plan --emit writes pass the parsers of the tools they target', () => {
  it.skipIf(!yamlOracle).each(PLANS)('$name', ({ name, req }) => {
    const r = plan(name, req);
    const e = trainingExports(r.exports);
    const files = new Map(planFiles(r).map((f) => [f.name, f.text]));
    const text = (name: string): string => files.get(name) ?? '';
    const lines = (name: string): string[] =>
      text(name)
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#!') && !l.startsWith('cd '));
    const problems: string[] = [];
    const words = text('megatron-args.txt').trim().split(/\s+/);
    problems.push(
      ...checkCommand(['pretrain_gpt.py', ...words].map(shellQuote).join(' '), FIXTURES['megatron-lm']).map(
        (p) => `megatron-args.txt: ${p}`,
      ),
    );
    for (const name of ['megatron.sh', 'torchrun.sh', 'deepspeed.sh', 'launch_lora.sh'])
      for (const line of lines(name).filter((l) => !/^python3? /.test(l)))
        problems.push(...lineProblems(line).map((p) => `${name}: ${p}`));
    problems.push(...lineProblems(slurmLine(text('job.sbatch'))).map((p) => `job.sbatch: ${p}`));
    problems.push(...lineProblems(e.accelerate.command).map((p) => `accelerate launch: ${p}`));
    problems.push(
      ...checkConfig(JSON.parse(text('ds_config.json')), FIXTURES.deepspeed).map((p) => `ds_config.json: ${p}`),
    );
    for (const name of ['accelerate.yaml', 'accelerate_lora.yaml'].filter((n) => files.has(n)))
      problems.push(...checkConfig(oracleYaml(text(name)), FIXTURES.accelerate).map((p) => `${name}: ${p}`));
    // deepspeed.sh passes --deepspeed_config to train_deepspeed.py, whose own parser takes it.
    for (const line of lines('deepspeed.sh'))
      for (const flag of splitAtScript(line).args.filter((w) => w.startsWith('--')))
        expect(text('train_deepspeed.py')).toContain(`add_argument("${flag}"`);
    expect(problems).toEqual([]);
  });

  it("the megatron stack's TP layout on H100s: --tp-comm-overlap with sequence parallelism, as Megatron-LM's parser takes them", () => {
    const req: PlanRequest = { ...llama, virtual: ['8xH100 SXM5'], layout: 'tp=4,pp=1,dp=2,zero=1', stack: 'megatron' };
    const words = (planFiles(plan('megatron stack, tp 4', req)).find((f) => f.name === 'megatron-args.txt')?.text ?? '')
      .trim()
      .split(/\s+/);
    expect(words).toEqual(expect.arrayContaining(['--sequence-parallel', '--tp-comm-overlap']));
    expect(checkCommand(['pretrain_gpt.py', ...words].map(shellQuote).join(' '), FIXTURES['megatron-lm'])).toEqual([]);
    // On A100s the stack leaves the collectives between the GEMMs, and the export says nothing of an overlap.
    const a100 = planFiles(plan('megatron stack, tp 4, A100', { ...req, virtual: ['8xA100'] }));
    expect(a100.find((f) => f.name === 'megatron-args.txt')?.text).not.toContain('--tp-comm-overlap');
  });

  it('covers what the plans are meant to: TP, pipeline stages, ZeRO-3, an offload and two nodes', () => {
    const exports = PLANS.map((p) => trainingExports(plan(p.name, p.req).exports));
    const args = exports.map((e) => e.megatron.args.join(' '));
    const ds = exports.map((e) => e.deepspeed.config);
    expect(args.some((a) => /--tensor-model-parallel-size [248]/.test(a))).toBe(true);
    expect(args.some((a) => /--pipeline-model-parallel-size [248]/.test(a))).toBe(true);
    expect(args.some((a) => /--optimizer-cpu-offload/.test(a))).toBe(true);
    expect(ds.some((c) => c.zero_optimization.stage === 3)).toBe(true);
    expect(exports[exports.length - 1]?.torch.commands).toHaveLength(2);
  });
});

describe('the training fixtures refuse what the tools would', () => {
  it('refuses a flag, a choice or a key the tool lacks', () => {
    const megatron = FIXTURES['megatron-lm'];
    expect(checkCommand('pretrain_gpt.py --tensor-parallel-size 2', megatron).join()).toMatch(/no such flag/);
    expect(checkCommand('pretrain_gpt.py --recompute-granularity layer', megatron).join()).toMatch(/not one of/);
    expect(checkCommand('torchrun --nproc-per-node 8 --nodes 2 t.py', FIXTURES.torchrun).join()).toMatch(/no such/);
    expect(checkCommand('torchrun --nproc_per_node 8 --node_rank 0 t.py', FIXTURES.torchrun)).toEqual([]);
    expect(
      checkConfig({ zero_optimization: { stage: 3, offload_optimizer: { device: 'gpu' } } }, FIXTURES.deepspeed).join(),
    ).toMatch(/not one of/);
    expect(checkConfig({ zero_optimisation: { stage: 3 } }, FIXTURES.deepspeed).join()).toMatch(/no such key/);
    expect(checkConfig({ bf16: { enable: true } }, FIXTURES.deepspeed).join()).toMatch(/no such key/);
    expect(checkConfig({ distributed_type: 'FSDP2' }, FIXTURES.accelerate).join()).toMatch(/not one of/);
    expect(checkConfig({ fsdp_config: { fsdp_sharding: 'FULL_SHARD' } }, FIXTURES.accelerate).join()).toMatch(
      /no such key/,
    );
  });

  it('names, in each fixture, the repository, commit, paths and version it was read from', () => {
    for (const f of Object.values(FIXTURES)) {
      expect(f.source.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(f.source.paths.length).toBeGreaterThan(0);
      expect(f.about.length).toBeGreaterThan(100);
    }
  });
});
