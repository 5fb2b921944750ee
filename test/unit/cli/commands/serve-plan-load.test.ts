/** `pipedejavu serve-plan`'s load: length specs, bursts and --trace (JSONL and ShareGPT), and one-line refusals of a bad spec or row. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServingPlanView } from '../../../../src-main/core/planner/serving/serving-plan-answer.js';
import { cli, tempDir } from '../../../helpers/cli.js';

const SLO = ['--ttft-p90', '1s', '--tpot-p90', '50ms'];
const BASE = ['serve-plan', '--workload', 'llama-3.1-8b', ...SLO, '--virtual', 'H100 SXM5', '--top', '1'];

function run(args: string[]) {
  return cli([...BASE, ...args, '--db', path.join(tempDir(), 'db.sqlite')]);
}

function file(name: string, text: string): string {
  const f = path.join(tempDir(), name);
  writeFileSync(f, text);
  return f;
}

/** 40 JSONL rows, 10 a second, prompts 500-1400 and outputs 50-140 tokens. */
const JSONL = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({ t: i / 10, prompt: 500 + (i % 10) * 100, output: 50 + (i % 10) * 10 }),
).join('\n');

const turn = (from: string, chars: number) => ({ from, value: 'x'.repeat(chars) });
const SHAREGPT = JSON.stringify(
  Array.from({ length: 8 }, (_, i) => ({ conversations: [turn('human', 4000 + i * 400), turn('gpt', 400 + i * 40)] })),
);

describe('pipedejavu serve-plan loads', () => {
  it("plans a JSONL trace at its own mean rate, replaying its times scaled to each replica's rate", async () => {
    const trace = file('requests.jsonl', JSONL);
    const r = await run(['--trace', trace]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // 39 gaps over 3.9 s: 10 req/s; the mean prompt 950 and output 95 tokens.
    expect(lines[0]).toMatch(
      /^llama-3\.1-8b at 10\.0 req\/s \(prompt 950, output 95 tokens on average, from the trace; /,
    );
    expect(lines[0]).toMatch(/the trace's arrival times scaled to the rate/);
    expect(lines[2]).toMatch(/^# +GPU +GPUS\/REPLICA/);
    expect(lines[4]).toMatch(/^1 +H100 SXM5/);
    expect(r.stdout).toMatch(
      /note: load: 40 requests simulated per point; arrivals .*requests\.jsonl's first 40 arrival times \(mean 10\.0 req\/s\), replayed on each replica scaled to its rate/,
    );
    expect(r.stdout).toMatch(
      /note: rate: none given, so .*requests\.jsonl's own mean over its first 40 arrival times, 10\.0 req\/s/,
    );
  });

  it('with --rate replays the trace at that rate, and --json carries the load in words', async () => {
    const trace = file('requests.jsonl', JSONL);
    const r = await run(['--trace', trace, '--rate', '20', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout) as ServingPlanView;
    expect(v.load).toMatchObject({ rate: 20, prompt: 950, output: 95, requests: 40 });
    expect(v.load.described.arrivals).toMatch(/first 40 arrival times \(mean 10\.0 req\/s\)/);
    expect(v.load.described.prompt).toMatch(/token counts as the trace gives them/);
  });

  it('plans a ShareGPT trace with Poisson arrivals at --rate and says its lengths are approximated', async () => {
    const trace = file('sharegpt.json', SHAREGPT);
    const r = await run(['--trace', trace, '--rate', '5', '--requests', '40']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // Prompts 4000-6800 characters (mean 5400: 1350 tokens), answers 400-680 (mean 540: 135 tokens).
    expect(lines[0]).toMatch(
      /^llama-3\.1-8b at 5\.00 req\/s \(prompt 1350, output 135 tokens on average, from the trace, lengths approximated as ceil\(characters \/ 4\)\)/,
    );
    expect(lines[4]).toMatch(/^1 +H100 SXM5/);
    expect(r.stdout).toMatch(
      /arrivals Poisson \(seed 1\); prompts .*sharegpt\.json's first 8 rows cycled over 40 requests .*no tokenizer/,
    );
  });

  it('asks a ShareGPT trace for --rate in one line', async () => {
    const r = await run(['--trace', file('sharegpt.json', SHAREGPT)]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/ShareGPT trace has no arrival times: give a rate \(--rate N\)/),
    ]);
  });

  it('refuses a bad trace row in one line naming the file and the row, and exits 1', async () => {
    const bad = file(
      'bad.jsonl',
      `${JSONL.split('\n').slice(0, 3).join('\n')}\n{"t": 0.5, "prompt": "long", "output": 9}\n`,
    );
    const r = await run(['--trace', bad]);
    expect(r.code).toBe(1);
    const err = r.stderr.trim().split('\n');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/bad\.jsonl row 4: prompt must be a whole number of tokens/);
  });

  it('accepts a lognormal prompt, a uniform output and bursts, and shows them', async () => {
    const r = await run([
      '--rate',
      '10',
      '--requests',
      '60',
      '--prompt',
      'lognormal:2000:0.6',
      '--output',
      '100-400',
      '--burst',
      '3',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const head = r.stdout.split('\n')[0];
    // The lognormal's mean is its median x e^(sigma^2/2): 2000 x e^0.18 = 2394.
    expect(head).toMatch(
      /prompt lognormal, median 2000 tokens, sigma 0\.6 \(clamped to 1-\d+\), output uniform 100-400 tokens; mean 2394 and 250; bursts, gaps' CV 3\)/,
    );
    expect(r.stdout).toMatch(/arrivals bursts, gaps gamma with CV 3 \(seed 1\)/);
  });

  it('refuses a bad length spec, a bad burst and a trace with lengths given, each in one line', async () => {
    const trace = file('requests.jsonl', JSONL);
    for (const [args, msg] of [
      [['--rate', '5', '--prompt', 'lognormal:2000'], /--prompt lognormal:2000: write lognormal:MEDIAN:SIGMA/],
      [['--rate', '5', '--output', '400-100'], /--output 400-100: the range's high end is below its low end/],
      [
        ['--rate', '5', '--prompt', 'many'],
        /--prompt many: write a count \(2000\), a range \(1000-3000\) or lognormal/,
      ],
      [['--rate', '5', '--burst', '0'], /--burst takes the gaps' coefficient of variation above 0/],
      [['--trace', trace, '--prompt', '100'], /--trace gives the lengths/],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
  });
});
