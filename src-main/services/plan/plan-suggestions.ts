/**
 * When no plan fits: the smallest changes that would, each verified by running the same search
 * on the changed request (never guessed). Tried in this order, a few values each, the first that
 * fits kept (at most MAX_SUGGESTION_SEARCHES searches in all):
 * - fewer tokens: half, a quarter, an eighth of the sequence (3 tries);
 * - a smaller batch: half, a quarter, an eighth, then 1 (4 tries);
 * - full activation recomputation, when training and not already searched (1 try);
 * - ZeRO stages above the one asked for (training with --zero, up to 3 tries; without it the
 *   search has tried them all);
 * - 4-bit weights (serving, 1 try);
 * - more GPUs of one kind: the largest GPU of the plan with a datasheet, and the datasheet GPU
 *   with the most memory of the same form factor (a PCIe card beside PCIe cards, never an SXM
 *   module beside a 4090): 1, 2, 4 or 8 more of each (8 tries), written as one count per GPU
 *   ("2x4090" and 4 more is "6x4090", in the name the user typed).
 * A search of a huge request takes seconds, so the tries also stop once SUGGESTION_TIME_MS has
 * passed, and the answer says it was cut short.
 * Each change's best plan is ranked and shown as the request's own plans are: serving a decoder,
 * by its objective, with the first token, decode step and tokens/s; else by the step, in samples/s.
 */
import {
  datasheetFor,
  GPU_DATASHEETS,
  resolveGpuName,
  virtualGpuName,
  type GpuDatasheet,
} from '../../core/planner/cost/datasheets.js';
import { shellDoubleQuote } from '../../core/planner/exports/common.js';
import { WEIGHT_FORMATS } from '../../core/workload/generation.js';
import { count } from '../../core/text/plural.js';
import type { Plan, PlanDevice, PlanSuggestion, SuggestedPlan } from '../../core/planner/types.js';
import type { ServingFigures } from '../../core/planner/serving/serving.js';
import type { PlanRequest } from '../../core/planner/plan-request.js';

export const MAX_SUGGESTION_SEARCHES = 20;
/** Wall time the tries may take in all: a request that does not fit is answered within seconds. */
export const SUGGESTION_TIME_MS = 5_000;

/** The changes found, how many searches were run, and whether time ran out before all were tried. */
export interface SuggestionSearch {
  suggestions: PlanSuggestion[];
  searched: number;
  cut: boolean;
}

interface Budget {
  left: number;
  searched: number;
  cut: boolean;
  until: number;
  now: () => number;
}

/** What the tries read and change of a request (the rest of it is searched again as it is). */
type SuggestedRequest = Pick<PlanRequest, 'mode' | 'seq' | 'recompute' | 'zero' | 'weights' | 'virtual'> & {
  batch: number;
};

/**
 * The best plan that fits the request, ranked as the request's plans are (a served decoder by its
 * objective, else by the step), or null (null also for a request the service refuses).
 */
export type BestPlanOf<R> = (req: R) => SuggestedPlan | null;

export interface SuggestionInput<R extends SuggestedRequest = PlanRequest & { batch: number }> {
  req: R;
  /** Tokens per sequence of the workload as planned, or undefined when it has none. */
  seq: number | undefined;
  /** Bytes per parameter of the weights as planned. */
  bytesPerParam: number;
  devices: readonly PlanDevice[];
}

interface Try<R> {
  req: R;
  change: string;
  option: string;
}

/** Halvings of n down to 1, at most `most` of them, the last one 1 when `toOne`. */
function smaller(n: number, most: number, toOne: boolean): number[] {
  const out: number[] = [];
  for (let v = Math.floor(n / 2); v >= 1 && out.length < most; v = Math.floor(v / 2)) out.push(v);
  if (toOne && n > 1 && !out.includes(1)) out.push(1);
  return out;
}

function seqTries<R extends SuggestedRequest>({ req, seq }: SuggestionInput<R>): Try<R>[] {
  if (seq === undefined || seq < 2) return [];
  return smaller(seq, 3, false).map((n) => ({
    req: { ...req, seq: n },
    change: `${count(n, 'token')} per sequence instead of ${seq}`,
    option: `--seq ${n}`,
  }));
}

function batchTries<R extends SuggestedRequest>({ req }: SuggestionInput<R>): Try<R>[] {
  return smaller(req.batch, 3, true).map((n) => ({
    req: { ...req, batch: n },
    change: `a batch of ${n} instead of ${req.batch}`,
    option: `--batch ${n}`,
  }));
}

function recomputeTries<R extends SuggestedRequest>({ req }: SuggestionInput<R>): Try<R>[] {
  const searched = req.recompute ?? 'auto';
  if (req.mode !== 'training' || searched === 'auto' || searched === 'full') return [];
  return [
    {
      req: { ...req, recompute: 'full' },
      change: 'full activation recomputation (each layer keeps its input and runs its forward again)',
      option: '--recompute full',
    },
  ];
}

const ZERO_TEXT = {
  1: 'the optimizer state',
  2: 'the optimizer state and gradients',
  3: 'the optimizer state, gradients and weights',
} as const;

function zeroTries<R extends SuggestedRequest>({ req }: SuggestionInput<R>): Try<R>[] {
  // Without --zero the search tried every stage already.
  if (req.mode !== 'training' || req.zero === undefined) return [];
  return ([1, 2, 3] as const)
    .filter((z) => z > (req.zero ?? 0))
    .map((z) => ({
      req: { ...req, zero: z },
      change: `ZeRO stage ${z} (${ZERO_TEXT[z]} sharded over data-parallel replicas)`,
      option: `--zero ${z}`,
    }));
}

function fourBitTries<R extends SuggestedRequest>({ req, bytesPerParam }: SuggestionInput<R>): Try<R>[] {
  if (req.mode !== 'inference' || bytesPerParam <= WEIGHT_FORMATS.q4_k) return [];
  return [
    {
      req: { ...req, weights: 'q4_k' },
      change: `4-bit weights (Q4_K, ${WEIGHT_FORMATS.q4_k.toFixed(2)} bytes per parameter instead of ${bytesPerParam})`,
      option: '--weights q4_k',
    },
  ];
}

/**
 * The plan's largest GPU with a datasheet, then the datasheet GPU with the most memory of the same
 * form factor (of any, when the plan has no GPU with a datasheet).
 */
function gpuKinds(devices: readonly PlanDevice[]): GpuDatasheet[] {
  const gpus = devices.filter((d) => d.kind === 'gpu').sort((a, b) => b.memoryBytes - a.memoryBytes);
  const present = gpus.map((d) => datasheetFor(d.name)).find((g) => g !== null && g !== undefined) ?? undefined;
  const largest = GPU_DATASHEETS.filter((g) => !present || g.formFactor === present.formFactor).sort(
    (a, b) => b.memory.sizeGiB - a.memory.sizeGiB,
  )[0];
  return [present, largest].filter((g, i, all): g is GpuDatasheet => g !== undefined && all.indexOf(g) === i);
}

/** The datasheet a --virtual entry names, or null when it names none (the search refuses it). */
function entryDatasheet(entry: string): GpuDatasheet | null {
  try {
    return resolveGpuName(virtualGpuName(entry));
  } catch {
    return null;
  }
}

/** `virtual` with n more of a GPU: its entry's count raised (in the name typed there), or a new entry. */
function withMore(virtual: readonly string[], gpu: GpuDatasheet, n: number): string[] {
  const at = virtual.findIndex((e) => entryDatasheet(e)?.id === gpu.id);
  if (at < 0) return [...virtual, `${n}x${gpu.name}`];
  const entry = virtual[at] as string;
  const had = Number(/^\s*(\d+)\s*[x×*]/i.exec(entry)?.[1] ?? 1);
  return virtual.map((e, i) => (i === at ? `${had + n}x${virtualGpuName(entry)}` : e));
}

function gpuTries<R extends SuggestedRequest>({ req, devices }: SuggestionInput<R>): Try<R>[][] {
  return gpuKinds(devices).map((gpu) =>
    [1, 2, 4, 8].map((n) => {
      const virtual = withMore(req.virtual ?? [], gpu, n);
      return {
        req: { ...req, virtual },
        change: n === 1 ? `one more ${gpu.name}` : `${count(n, 'more GPU')} (${gpu.name})`,
        option: `--virtual ${shellDoubleQuote(virtual.join(','))}`,
      };
    }),
  );
}

/** The first try whose request fits, as a suggestion; searches counted against `budget`. */
function firstFit<R>(tries: readonly Try<R>[], bestOf: BestPlanOf<R>, budget: Budget): PlanSuggestion | null {
  for (const t of tries) {
    if (budget.left <= 0) return null;
    if (budget.now() >= budget.until) {
      budget.cut = true;
      return null;
    }
    budget.left--;
    budget.searched++;
    const plan = bestOf(t.req);
    if (plan) return { change: t.change, option: t.option, plan };
  }
  return null;
}

/**
 * A suggestion's best plan in its mode's figures: a served decoder's (with its serving figures)
 * as the serving table shows them, else the step and samples/s.
 */
export function suggestedPlan(p: Plan, serving: ServingFigures | undefined): SuggestedPlan {
  if (serving) {
    const { ttftUs, decodeStepUs, tokensPerSecondPerSequence, tokensPerSecond, requestUs, band } = serving;
    return {
      kind: p.kind,
      serving: {
        ttftUs,
        decodeStepUs,
        tokensPerSecondPerSequence,
        tokensPerSecond,
        requestUs,
        ...(band ? { band } : {}),
      },
    };
  }
  return {
    kind: p.kind,
    stepUs: p.stepUs,
    throughputSamplesPerS: p.throughputSamplesPerS,
    ...(p.optimizerOffload ? { optimizerOffload: true } : {}),
    ...(p.recompute ? { recompute: p.recompute } : {}),
    ...(p.zeroStage ? { zeroStage: p.zeroStage } : {}),
  };
}

/** Verified changes that make the request fit, one per kind of change, in the order above. */
export function suggestChanges<R extends SuggestedRequest>(
  input: SuggestionInput<R>,
  bestOf: BestPlanOf<R>,
  now: () => number = () => performance.now(),
): SuggestionSearch {
  const budget: Budget = {
    left: MAX_SUGGESTION_SEARCHES,
    searched: 0,
    cut: false,
    until: now() + SUGGESTION_TIME_MS,
    now,
  };
  const groups = [
    seqTries(input),
    batchTries(input),
    recomputeTries(input),
    zeroTries(input),
    fourBitTries(input),
    ...gpuTries(input),
  ];
  const out: PlanSuggestion[] = [];
  for (const g of groups) {
    const s = firstFit(g, bestOf, budget);
    if (s) out.push(s);
  }
  return { suggestions: out, searched: budget.searched, cut: budget.cut };
}
