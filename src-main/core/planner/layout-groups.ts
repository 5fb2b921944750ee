/**
 * A layout's context- and expert-parallel degrees (--layout ...,cp=N,ep=N): what they need of the
 * problem, refused in one line, and what the answer says of their communication. Pure.
 */
import { UserError } from '../errors.js';
import { formatBytes } from '../text/bytes.js';
import { count } from '../text/plural.js';
import { ringAttentionUs } from './cost/context-parallel.js';
import { allToAllUs, expertAllToAllUs } from './cost/expert-parallel.js';
import type { PlannerContext } from './problem/problem.js';
import type { Plan, PlanProblem } from './types.js';

const divisorsOf = (n: number, most = 64): number[] =>
  Array.from({ length: Math.min(n, most) }, (_, i) => i + 1).filter((d) => n % d === 0);

/** What the checks read of the layout and the plan's devices. */
interface GroupShape {
  tp: number;
  cp: number;
  /** The data-parallel degree (after cp). */
  dp: number;
  /** Kinds of devices in the plan (cp and ep are priced on one). */
  kinds: number;
}

/**
 * cp > 1 (Megatron-LM's --context-parallel-size): training a catalog transformer, its sequence in
 * 2·cp equal chunks (the causal load balance), devices of one kind.
 */
function contextParallelRefusal(problem: PlanProblem, shape: GroupShape, workload: string): string | null {
  const { cp } = shape;
  if (cp === 1) return null;
  const seq = problem.sequence;
  const refusals: [boolean, string][] = [
    [problem.mode !== 'training', 'context parallelism is priced for training; leave cp out when serving'],
    [seq === undefined, `${workload} is not a token sequence to split (catalog transformers are)`],
    [
      seq !== undefined && seq % (2 * cp) !== 0,
      `${workload}'s ${seq} tokens a sample do not split into 2 x cp = ${2 * cp} equal chunks (Megatron's causal load balance; cp that do: ${divisorsOf((seq ?? 0) / 2).join(', ')})`,
    ],
    [shape.kinds > 1, 'context parallelism is priced on devices of one kind; the plan has several'],
  ];
  const why = refusals.find(([refused]) => refused)?.[1];
  return why ? `--layout cp=${cp}: ${why}` : null;
}

/**
 * ep (Megatron-LM's --expert-model-parallel-size, experts whole): a mixture-of-experts model, ep
 * dividing its experts, a multiple of tp (whole tensor-parallel groups) dividing tp·cp·dp.
 */
function expertParallelRefusal(
  problem: PlanProblem,
  shape: GroupShape & { ep: number },
  workload: string,
): string | null {
  const { ep, tp, cp, dp } = shape;
  const experts = problem.layers.find((l) => l.experts)?.experts?.count;
  const width = tp * cp * dp;
  const refusals: [boolean, string][] = [
    [experts === undefined, `${workload} has no mixture-of-experts blocks to spread; leave ep out for a dense model`],
    [
      experts !== undefined && experts % ep !== 0,
      `ep must divide ${workload}'s ${experts} experts (ep that do: ${divisorsOf(experts ?? 1).join(', ')})`,
    ],
    [
      ep % tp !== 0,
      `ep must be a multiple of tp=${tp}: the experts spread over whole tensor-parallel groups (--expert-tensor-parallel-size 1)`,
    ],
    [
      ep % tp === 0 && width % ep !== 0,
      `ep=${ep} does not divide a stage's tp x cp x dp = ${width} GPUs (ep that do: ${divisorsOf(width)
        .filter((e) => e % tp === 0 && (experts ?? 0) % e === 0)
        .join(', ')})`,
    ],
    [shape.kinds > 1, 'expert parallelism is priced on devices of one kind; the plan has several'],
  ];
  const why = refusals.find(([refused]) => refused)?.[1];
  return why ? `--layout ep=${ep}: ${why}` : null;
}

/** Refuses the first of the two that does not hold, in one line. */
export function checkGroups(problem: PlanProblem, shape: GroupShape & { ep?: number }, workload: string): void {
  const why =
    contextParallelRefusal(problem, shape, workload) ??
    (shape.ep !== undefined ? expertParallelRefusal(problem, { ...shape, ep: shape.ep }, workload) : null);
  if (why) throw new UserError(why);
}

const ms = (us: number): string => `${(us / 1e3).toFixed(us < 1e4 ? 2 : 1)} ms`;

/** The answer's lines on the plan's context- and expert-parallel communication, on its first stage. */
export function groupNotes(ctx: PlannerContext, plan: Plan, tokens: number | undefined): string[] {
  const stage = plan.stages[0];
  if (!stage) return [];
  const tp = stage.tp ?? 1;
  const cp = plan.contextParallel ?? 1;
  const samples = ctx.problem.batch / plan.microbatches / (stage.devices.length / tp);
  const notes: string[] = [];
  const block = ctx.problem.layers.find((l) => l.kvBytesPerSample);
  if (cp > 1 && block?.kvBytesPerSample) {
    const ring = ringAttentionUs(ctx, stage.devices, stage, samples, tp, cp);
    notes.push(
      `context parallel: each sample's ${tokens ?? '?'} tokens split over cp=${cp} GPUs in ${2 * cp} chunks (causal load balance); ` +
        `ring attention passes ${formatBytes((samples * block.kvBytesPerSample) / tp)} of keys and values a GPU a step, ${cp} steps a block, ` +
        `priced as each step's attention or its message, whichever is longer: ${ms(ring)} a microbatch beyond compute on stage 0; ` +
        `the gradient all-reduce runs over dp x cp`,
    );
  }
  const ep = plan.expertParallel;
  const moe = ctx.problem.layers.find((l) => l.experts);
  if (ep !== undefined && moe?.experts) {
    const bytes = (samples * moe.outBytesPerSample * moe.experts.topK) / tp;
    const group = stage.devices.slice(0, ep);
    const machines = new Set(group.map((id) => ctx.problem.devices.find((d) => d.id === id)?.machine)).size;
    notes.push(
      `expert parallel: each MoE block's ${moe.experts.count} experts over ep=${ep} GPUs (${count(machines, 'node')}), ${moe.experts.count / ep} a GPU; ` +
        `tokens dispatched and combined by all-to-alls of ${formatBytes(bytes)} a GPU (top-${moe.experts.topK}), 2 forward and 2 backward a block, ` +
        `${ms(allToAllUs(ctx, group, bytes))} each, ${ms(expertAllToAllUs(ctx, stage.devices, stage, samples, tp, ep))} a microbatch on stage 0; ` +
        `expert gradients are counted with the dense ones' all-reduce`,
    );
  }
  return notes;
}
