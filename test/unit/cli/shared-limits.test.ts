/**
 * One limit per number and per text, shared by the CLI and the API: each option's range comes
 * from REQUEST_LIMITS / TEXT_LIMITS (src-main/core/workload/limits.ts), and the CLI's option and the
 * contract's field refuse the same values at the same bounds, each message naming the limit. A
 * value the CLI accepts gets past its option (the command then fails on the missing workload).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src-main/api/contract.js';
import { REQUEST_LIMITS, TEXT_LIMITS, type Range } from '../../../src-main/core/workload/limits.js';
import { cli, tempDir } from '../../helpers/cli.js';

const NO_MODEL = 'no-such-model-h56';
const PLAN = ['plan', '--workload', NO_MODEL, '--devices', 'none'];
const SERVE = [...PLAN, '--mode', 'inference'];

/** The contract's request for a channel, with `value` put where `set` says. */
interface ContractSide {
  channel: keyof typeof CHANNELS;
  request: (value: number) => Record<string, unknown>;
}

interface LimitCase {
  range: Range;
  /** The CLI's arguments with the value as typed. */
  args: (value: string) => string[];
  /** The option as the CLI's message names it. */
  flag: string;
  contract: ContractSide;
}

const plan = (extra: Record<string, unknown>): Record<string, unknown> => ({
  workload: NO_MODEL,
  batch: 8,
  devices: 'none',
  mode: 'training',
  ...extra,
});
const served = (extra: Record<string, unknown>): Record<string, unknown> => plan({ mode: 'inference', ...extra });

const CASES: [string, LimitCase][] = [
  [
    'plan --batch / plan:create batch',
    {
      range: REQUEST_LIMITS.batch,
      flag: '--batch',
      args: (v) => [...PLAN, '--batch', v],
      contract: { channel: 'plan:create', request: (v) => plan({ batch: v }) },
    },
  ],
  [
    'fit --batch / workload:fit batch',
    {
      range: REQUEST_LIMITS.batch,
      flag: '--batch',
      args: (v) => ['fit', NO_MODEL, '--batch', v],
      contract: { channel: 'workload:fit', request: (v) => ({ workload: NO_MODEL, mode: 'inference', batch: v }) },
    },
  ],
  [
    'predict-model --batch / workload:predict batch',
    {
      range: REQUEST_LIMITS.batch,
      flag: '--batch',
      args: (v) => ['predict-model', NO_MODEL, '--device', 'cpu', '--batch', v],
      contract: { channel: 'workload:predict', request: (v) => ({ workload: NO_MODEL, mode: 'inference', batch: v }) },
    },
  ],
  [
    'plan --seq / plan:create seq',
    {
      range: REQUEST_LIMITS.seq,
      flag: '--seq',
      args: (v) => [...PLAN, '--seq', v],
      contract: { channel: 'plan:create', request: (v) => plan({ seq: v }) },
    },
  ],
  [
    'plan --image / plan:create image',
    {
      range: REQUEST_LIMITS.image,
      flag: '--image',
      args: (v) => [...PLAN, '--image', v],
      contract: { channel: 'plan:create', request: (v) => plan({ image: v }) },
    },
  ],
  [
    'plan --dim / plan:create dims',
    {
      range: REQUEST_LIMITS.dim,
      flag: '--dim n',
      args: (v) => [...PLAN, '--dim', `n=${v}`],
      contract: { channel: 'plan:create', request: (v) => plan({ dims: { n: v } }) },
    },
  ],
  [
    'fit --context / workload:fit context',
    {
      range: REQUEST_LIMITS.context,
      flag: '--context',
      args: (v) => ['fit', NO_MODEL, '--context', v],
      contract: { channel: 'workload:fit', request: (v) => ({ workload: NO_MODEL, mode: 'inference', context: v }) },
    },
  ],
  [
    'plan --prompt / plan:create prompt',
    {
      range: REQUEST_LIMITS.prompt,
      flag: '--prompt',
      args: (v) => [...SERVE, '--prompt', v],
      contract: { channel: 'plan:create', request: (v) => served({ prompt: v }) },
    },
  ],
  [
    'plan --tokens / plan:create tokens',
    {
      range: REQUEST_LIMITS.tokens,
      flag: '--tokens',
      args: (v) => [...SERVE, '--tokens', v],
      contract: { channel: 'plan:create', request: (v) => served({ tokens: v }) },
    },
  ],
  [
    'plan --top / plan:create topN',
    {
      range: REQUEST_LIMITS.top,
      flag: '--top',
      args: (v) => [...PLAN, '--top', v],
      contract: { channel: 'plan:create', request: (v) => plan({ topN: v }) },
    },
  ],
  [
    'plan --concurrency / plan:create load.users',
    {
      range: REQUEST_LIMITS.users,
      flag: '--concurrency',
      args: (v) => [...SERVE, '--concurrency', v],
      contract: { channel: 'plan:create', request: (v) => served({ load: { kind: 'concurrency', users: v } }) },
    },
  ],
  [
    'plan --requests / plan:create load.requests',
    {
      range: REQUEST_LIMITS.requests,
      flag: '--requests',
      args: (v) => [...SERVE, '--concurrency', '4', '--requests', v],
      contract: {
        channel: 'plan:create',
        request: (v) => served({ load: { kind: 'concurrency', users: 4, requests: v } }),
      },
    },
  ],
  [
    'plan --rank / plan:create finetune.rank',
    {
      range: REQUEST_LIMITS.rank,
      flag: '--rank',
      args: (v) => [...PLAN, '--mode', 'finetune', '--adapter', 'lora', '--rank', v],
      contract: { channel: 'plan:create', request: (v) => plan({ finetune: { adapter: 'lora', rank: v } }) },
    },
  ],
  [
    'predict-model --threads / workload:measure threads',
    {
      range: REQUEST_LIMITS.threads,
      flag: '--threads',
      args: (v) => ['predict-model', NO_MODEL, '--device', 'cpu', '--threads', v],
      contract: { channel: 'workload:measure', request: (v) => ({ workload: NO_MODEL, threads: v }) },
    },
  ],
  [
    'evaluate --folds / predictor:evaluate k',
    {
      range: REQUEST_LIMITS.folds,
      flag: '--folds',
      args: (v) => ['evaluate', '--no-sklearn', '--folds', v],
      contract: { channel: 'predictor:evaluate', request: (v) => ({ k: v }) },
    },
  ],
];

const contractError = (side: ContractSide, value: number): string | null => {
  const r = CHANNELS[side.channel].request.safeParse(side.request(value));
  return r.success ? null : (r.error.issues[0]?.message ?? 'invalid');
};

describe('the CLI and the contract refuse the same counts at the same bounds', () => {
  const db = path.join(tempDir(), 's.db');

  it.each(CASES)('%s', async (_name, c) => {
    const { min, max } = c.range;
    const refusal = (v: number): string =>
      `pipedejavu: error: ${c.flag} takes a whole number from ${min} to ${max}, got "${v}"\n`;
    for (const v of [min - 1, max + 1]) {
      const r = await cli([...c.args(String(v)), '--db', db]);
      expect(r.code, `${v}`).toBe(2);
      expect(r.stderr).toBe(refusal(v));
      expect(contractError(c.contract, v), `${v}`).toBe(`a whole number from ${min} to ${max}`);
    }
    for (const v of [min, max]) {
      const r = await cli([...c.args(String(v)), '--db', db]);
      // Past the option: the command fails later, on the missing model or the empty store.
      expect(r.stderr, `${v}`).not.toContain(`${c.flag} takes`);
      expect(contractError(c.contract, v), `${v}`).toBeNull();
    }
    // Not a whole number: refused by both, the CLI echoing it cut to 40 characters.
    const long = '7'.repeat(10_000);
    const r = await cli([...c.args(long), '--db', db]);
    expect(r.stderr).toBe(
      `pipedejavu: error: ${c.flag} takes a whole number from ${min} to ${max}, got "${'7'.repeat(40)}..."\n`,
    );
    expect(contractError(c.contract, 1.5)).toBe(`a whole number from ${min} to ${max}`);
  });

  it('rates and LoRA alpha: above 0, at most their limit, in both', async () => {
    const cases: [string, Range, (v: string) => string[], (v: number) => Record<string, unknown>][] = [
      [
        '--rate',
        REQUEST_LIMITS.rate,
        (v) => [...SERVE, '--rate', v],
        (v) => served({ load: { kind: 'rate', perSecond: v } }),
      ],
      [
        '--alpha',
        REQUEST_LIMITS.alpha,
        (v) => [...PLAN, '--mode', 'finetune', '--adapter', 'lora', '--alpha', v],
        (v) => plan({ finetune: { adapter: 'lora', alpha: v } }),
      ],
    ];
    for (const [flag, { min, max }, args, request] of cases) {
      for (const v of [min, max + 0.5]) {
        const r = await cli([...args(String(v)), '--db', db]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(
          new RegExp(`^pipedejavu: error: ${flag} takes .* above ${min}, at most ${max}; got "`),
        );
        expect(contractError({ channel: 'plan:create', request }, v)).toBe(`a number above ${min}, at most ${max}`);
      }
      for (const v of [0.5, max]) {
        const r = await cli([...args(String(v)), '--db', db]);
        expect(r.stderr).not.toContain(`${flag} takes`);
        expect(contractError({ channel: 'plan:create', request }, v)).toBeNull();
      }
    }
  });
});

describe('the CLI and the contract take texts of the same length', () => {
  const db = path.join(tempDir(), 's.db');
  const cases: [string, number, (v: string) => string[], (v: string) => Record<string, unknown>, string][] = [
    ['--layout', TEXT_LIMITS.layout, (v) => [...PLAN, '--layout', v], (v) => plan({ layout: v }), 'tp=1,'],
    ['--network', TEXT_LIMITS.network, (v) => [...PLAN, '--network', v], (v) => plan({ network: v }), '1'],
  ];
  it.each(cases)('%s', async (flag, max, args, request, unit) => {
    const text = (n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const over = await cli([...args(text(max + 1)), '--db', db]);
    expect(over.code).toBe(2);
    expect(over.stderr).toBe(
      `pipedejavu: error: ${flag} takes at most ${max} characters; got ${max + 1}: "${text(40)}..."\n`,
    );
    expect(CHANNELS['plan:create'].request.safeParse(request(text(max + 1))).success).toBe(false);
    const at = await cli([...args(text(max)), '--db', db]);
    expect(at.stderr).not.toContain(`${flag} takes at most`);
    expect(CHANNELS['plan:create'].request.safeParse(request(text(max))).success).toBe(true);
  });
});
