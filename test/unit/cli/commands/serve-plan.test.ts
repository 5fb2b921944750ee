/** `pipedejavu serve-plan`: the ranked deployments and a latency-vs-rate table, --json, one-line refusals, exit 1 when nothing meets. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServingPlanView } from '../../../../src-main/core/planner/serving/serving-plan-answer.js';
import { cli, tempDir } from '../../../helpers/cli.js';

const BASE = ['serve-plan', '--workload', 'llama-3.1-8b', '--prompt', '1000', '--output', '100', '--requests', '60'];
const SLO = ['--ttft-p90', '1s', '--tpot-p90', '50ms'];
const run = (args: string[]) => cli([...BASE, ...args, '--db', path.join(tempDir(), 'db.sqlite')]);

describe('pipedejavu serve-plan', () => {
  it('ranks deployments cheapest first with costs, percentiles and band, and says which prices are defaults', async () => {
    const r = await run(['--rate', '10', ...SLO, '--virtual', 'H100 SXM5,4090', '--price', '4090=0.4/h', '--top', '3']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^llama-3\.1-8b at 10\.0 req\/s \(prompt 1000, output 100 tokens\); SLO TTFT p90 <= 1\.00 s, TPOT p90 <= 50\.0 ms$/,
    );
    expect(lines[2]).toMatch(
      /^# +GPU +GPUS\/REPLICA +TP +WEIGHTS +ENGINE +REPLICAS +\$\/H +\$\/M TOKENS +TTFT P50 +TTFT P90/,
    );
    const costs = lines.slice(4, 7).map((l) => Number(l.split(/ {2,}/)[7]));
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(r.stdout).toMatch(/latency vs rate, \d+ x \d+ /);
    expect(r.stdout).toMatch(/price: RTX 4090 \$0\.4\/GPU-hour \(given\)/);
    expect(r.stdout).toMatch(
      /price: H100 SXM5 80GB \$[\d.]+\/GPU-hour \(default: .+, https:\/\/.+, read \d{4}-\d{2}-\d{2}/,
    );
    expect(r.stdout).toMatch(/band: vLLM's times were x[\d.]+-x[\d.]+ of independent measurements/);
  });

  it('answers --json with the API view', async () => {
    const r = await run(['--rate', '10', ...SLO, '--virtual', 'H100 SXM5', '--top', '2', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout) as ServingPlanView;
    expect(v.deployments.length).toBeGreaterThan(0);
    expect(v.deployments.length).toBeLessThanOrEqual(2);
    expect(v.deployments[0]).toMatchObject({ gpuId: 'h100-sxm5-80gb', meets: true, engine: 'vllm' });
    expect(v.deployments[0]?.curve.length).toBeGreaterThan(0);
    expect(v.prices[0]).toMatchObject({ given: false, source: { url: expect.stringMatching(/^https:/) } });
  });

  it("gives each deployment its goodput, KV use and queue at the per-replica rate, and the cheapest one's series", async () => {
    const r = await run(['--rate', '10', ...SLO, '--virtual', 'H100 SXM5,4090', '--price', '4090=0.4/h', '--top', '2']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const figure = String.raw`[\d.]+%? \[([\d.]+%?-[\d.]+%?|no band)\]`;
    const per = lines.filter((l) => /^#\d at /.test(l));
    expect(per).toHaveLength(2);
    for (const l of per)
      expect(l).toMatch(
        new RegExp(
          `^#\\d at [\\d.]+ req/s per replica: goodput ${figure} req/s per replica \\(${figure} of requests within every cap\\); ` +
            `KV use mean ${figure}, peak ${figure}; queue mean ${figure}, peak ${figure} requests? waiting$`,
        ),
      );
    expect(r.stdout).toMatch(
      /^over time, one replica of 1 x 1 .+ \(\d+ slices of [\d.]+ s; --json has the series\): KV use peaks at [\d.]+% /m,
    );

    const j = await run([
      '--rate',
      '10',
      ...SLO,
      '--virtual',
      'H100 SXM5,4090',
      '--price',
      '4090=0.4/h',
      '--top',
      '2',
      '--json',
    ]);
    const v = JSON.parse(j.stdout) as ServingPlanView;
    expect(v.deployments).toHaveLength(2);
    for (const d of v.deployments) {
      const f = d.replica;
      expect(f).toBeDefined();
      if (!f) continue;
      expect(f.requests).toBe(60);
      expect(f.goodput.value).toBeLessThanOrEqual(d.perReplicaRate * (1 + 1e-12));
      expect(f.goodput.value).toBeCloseTo(f.goodShare.value * d.perReplicaRate, 9);
      expect(f.goodShare.value).toBeGreaterThanOrEqual(0);
      expect(f.goodShare.value).toBeLessThanOrEqual(1);
      expect(f.kvUsePct.peak.value).toBeGreaterThanOrEqual(f.kvUsePct.mean.value);
      expect(f.kvUsePct.peak.value).toBeLessThanOrEqual(100);
      expect(f.queue.peak.value).toBeGreaterThanOrEqual(f.queue.mean.value);
      for (const b of [f.goodput, f.goodShare, f.kvUsePct.mean, f.kvUsePct.peak, f.queue.mean, f.queue.peak]) {
        expect(b.range).not.toBeNull();
        const [lo, hi] = b.range ?? [0, 0];
        expect(lo).toBeLessThanOrEqual(b.value);
        expect(hi).toBeGreaterThanOrEqual(b.value);
      }
      expect(f.kvUsePct.peak.range?.[1]).toBeLessThanOrEqual(100);
    }
    const s = v.deployments[0]?.series;
    expect(s).toBeDefined();
    expect(v.deployments[1]?.series).toBeUndefined();
    expect(s?.kvUsePct.length).toBeGreaterThan(0);
    expect(s?.kvUsePct.length).toBeLessThanOrEqual(200);
    expect(s?.queue.length).toBe(s?.kvUsePct.length);
    const kvPeak = Math.max(...(s?.kvUsePct ?? []).map((p) => p.max));
    expect(kvPeak).toBeCloseTo(v.deployments[0]?.replica?.kvUsePct.peak.value ?? -1, 9);
    for (const p of s?.kvUsePct ?? []) expect(p.max).toBeGreaterThanOrEqual(p.mean - 1e-9);
  });

  it('plans with an fp8 KV cache when asked, and says so', async () => {
    const r = await run(['--rate', '5', ...SLO, '--virtual', 'H100 SXM5', '--kv-cache', 'fp8', '--json']);
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout) as ServingPlanView;
    expect(v.deployments.length).toBeGreaterThan(0);
    expect(v.notes.some((n) => n.startsWith('KV cache in fp8 (--kv-cache fp8)'))).toBe(true);
  });

  it('names the closest deployment and its percentiles in one line and exits 1 when nothing meets', async () => {
    const r = await run(['--rate', '10', '--tpot-p50', '0.01ms', '--virtual', 'H100 SXM5']);
    expect(r.code).toBe(1);
    const err = r.stderr.trim().split('\n');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(
      /nothing meets TPOT p50 <= 0\.01 ms at 10\.0 req\/s; closest: .*H100 SXM5.*TTFT p50 .* TPOT p50 /,
    );
  });

  it('refuses a rate of 0, a negative one, 1e9, a time without a unit and no SLO, each in one line', async () => {
    for (const [args, msg] of [
      [['--rate', '0', ...SLO], /--rate takes requests per second above 0, at most 100000; got "0"/],
      [['--rate=-3', ...SLO], /--rate takes requests per second above 0/],
      [['--rate', '1e9', ...SLO], /--rate takes requests per second above 0, at most 100000; got "1e9"/],
      [['--rate', '5', '--ttft-p90', '1'], /--ttft-p90 takes a time with its unit, e.g\. 1s or 50ms/],
      [['--rate', '5'], /serve-plan needs an SLO/],
      [['--rate', '5', ...SLO, '--price', 'H100=cheap'], /--price H100=cheap: give GPU=DOLLARS\/h/],
      [['--rate', '5', ...SLO, '--kv-cache', 'int4'], /--kv-cache takes auto or fp8; got "int4"/],
      [
        ['--rate', '5', ...SLO, '--kv-cache', 'fp8', '--engine', 'transformers'],
        /--kv-cache fp8: Hugging Face transformers keeps the KV cache in the model's dtype \(no fp8 cache\)/,
      ],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
  });
});
