/** Ranked plans, their memory and the best plan's exports, as text. */
import type { Mode, Plan, PlanDevice } from '../../core/planner/types.js';
import type { PlanExports } from '../../core/planner/exports/export-plan.js';
import { oneLine } from '../../core/planner/exports/common.js';
import { count, noun } from '../../core/text/plural.js';
import { groupBy } from '../../core/util/group-by.js';
import type { PlanResponse } from '../../services/plan/plan-service.js';
import type { StepBand } from '../../services/plan/plan-bands.js';
import type { ServingFigures } from '../../core/planner/serving/serving.js';
import { tableRows, textLines } from '../output.js';
import { formatBytes } from '../../core/text/bytes.js';
import { stageBlocksText, stageDevicesText } from '../../core/planner/stage-text.js';
import { ms } from './workload.js';
import { suggestionLines } from './plan-suggestions.js';
import { assumptionsLine, stackLines } from '../../core/planner/plan-assumptions.js';
import { scheduleText } from '../../core/planner/layout.js';

/** "1 measured, 8 from datasheets": only what is true of the plan's devices. */
function provenanceText(devices: PlanResponse['problem']['devices']): string {
  const datasheet = devices.filter((d) => d.estimate === 'datasheet').length;
  const measured = `${devices.length - datasheet} measured`;
  return datasheet === 0 ? measured : `${measured}, ${datasheet} from ${noun(datasheet, 'datasheet')}`;
}

/** The plan's devices: one by one, alike ones (same model, machine and origin) as "8 x NAME", or per kind past 16 groups. */
function devicesText(devices: PlanResponse['problem']['devices']): string {
  const groups = groupBy(devices, (d) => `${d.name}\u0000${d.machine}\u0000${d.estimate}`);
  const estimate = (d: PlanDevice): string => (d.estimate === 'datasheet' ? ' (datasheet estimate)' : '');
  if (groups.size <= 16) {
    const items = [...groups.values()].map((g) => {
      const first = g[0] as PlanDevice;
      return g.length === 1
        ? `${first.id}${estimate(first)}`
        : `${g.length} x ${first.name} on ${first.machine}${estimate(first)}`;
    });
    return `${items.join(', ')} (${provenanceText(devices)})`;
  }
  const kinds = new Map<string, number>();
  for (const d of devices) kinds.set(d.name, (kinds.get(d.name) ?? 0) + 1);
  const machines = new Set(devices.map((d) => d.machine)).size;
  return `${devices.length} on ${count(machines, 'machine')} (${[...kinds].map(([name, n]) => `${n} x ${name}`).join(', ')}; ${provenanceText(devices)})`;
}

/** "with optimizer offload, full recomputation: " as the ranking prefixes a variant's rejections; '' for the plain problem. */
function variantText(p: Plan): string {
  const parts = [
    ...(p.optimizerOffload ? ['optimizer offload'] : []),
    ...(p.recompute ? [`${p.recompute} recomputation`] : []),
    ...(p.zeroStage ? [`ZeRO-${p.zeroStage}`] : []),
  ];
  return parts.length ? `with ${parts.join(', ')}: ` : '';
}

/** Why plans were rejected, each reason once: a plan listed as not fitting is also a rejection, and
 * alike devices (ids that differ only by index, "m/gpu:3") rejected for the same reason make one line
 * with a count. At most `most` lines. */
function rejectionLines(r: PlanResponse, most = 8): string[] {
  // Whole searches (pipelines, hybrids, every plan an offload's host cannot hold) first: one device too small says least.
  const all = [
    // A rejection of several plans (of several kinds) is not of its example's kind.
    ...r.result.rejected.map((x) =>
      (x.plans ?? 1) > 1
        ? { many: true, line: x.reason }
        : { many: x.kind !== 'single', line: `${x.kind}: ${x.reason}` },
    ),
    ...r.result.plans
      .filter((p) => !p.feasible)
      .map((p) => ({ many: p.kind !== 'single', line: `${p.kind}: ${variantText(p)}${p.reasons.join('; ')}` })),
  ];
  const lines = [...all.filter((x) => x.many), ...all.filter((x) => !x.many)].map((x) => x.line);
  const byIndexless = new Map<string, Set<string>>();
  for (const l of lines) {
    const key = l.replace(/(\/[\w.-]+):\d+\b/g, '$1:N');
    byIndexless.set(key, (byIndexless.get(key) ?? new Set()).add(l));
  }
  const unique = [...byIndexless].map(([key, alike]) =>
    alike.size === 1 ? ([...alike][0] ?? key) : `${alike.size}x: ${key}`,
  );
  const shown = unique.slice(0, most).map((l) => `- ${l}`);
  if (unique.length > most)
    shown.push(`- ... and ${count(unique.length - most, 'more reason')} (--json lists them all)`);
  return shown;
}

/** "hybrid + ZeRO-1 + CPU optimizer + full recompute": the KIND column. */
function kindText(p: Plan): string {
  return (
    `${p.kind}${p.zeroStage ? ` + ZeRO-${p.zeroStage}` : ''}` +
    `${p.optimizerOffload ? ' + CPU optimizer' : ''}${p.recompute ? ` + ${p.recompute} recompute` : ''}`
  );
}

/** The user's layout beside the best plan: how much slower, or why it does not fit. */
function layoutLines(l: NonNullable<PlanResponse['layout']>): string[] {
  const vs =
    l.vsBest === null
      ? ''
      : l.vsBest > 1 + 1e-9
        ? `, ${((l.vsBest - 1) * 100).toFixed(1)}% slower than the best plan`
        : l.vsBest < 1 - 1e-9
          ? `, ${((1 - l.vsBest) * 100).toFixed(1)}% faster than the best plan (the search does not cover it)`
          : ', as fast as the best plan';
  const band = l.band ? ` (band ${bandText(l.band)})` : '';
  const head = `Your layout ${l.text} (${l.schedule}): ${ms(l.stepUs)} a step${band}${vs}`;
  return [
    `${l.fits ? head : `${head}; it does not fit: ${l.reasons.slice(0, 2).join('; ')}`}; memory per device:`,
    ...tableRows(['DEVICE', 'NEEDED', 'AVAILABLE'], memoryRows(l.plan.memory)),
    ...l.notes.map((n) => `  note: ${n}`),
  ];
}

/** What a ZeRO stage shards, in words. */
function zeroText(stage: 1 | 2 | 3): string {
  const what = {
    1: 'optimizer state sharded (ZeRO-1)',
    2: 'optimizer state and gradients sharded (ZeRO-2, FSDP SHARD_GRAD_OP)',
    3: 'weights, gradients and optimizer state sharded (ZeRO-3, FSDP FULL_SHARD)',
  } as const;
  return what[stage];
}

function stagesText(p: Plan): string {
  return p.stages.map((s) => `[${s.from}-${s.to - 1}]${stageBlocksText(s)} ${stageDevicesText(s.devices, s.tp, p.contextParallel)}`).join(' | ');
}

/** One row per device; past 16 devices, one per distinct (needed, available) with a count. */
function memoryRows(memory: Plan['memory']): string[][] {
  if (memory.length <= 16)
    return memory.map((m) => [m.device, formatBytes(m.neededBytes), formatBytes(m.availableBytes)]);
  const rows = new Map<string, { devices: string[]; needed: string; available: string }>();
  for (const m of memory) {
    const needed = formatBytes(m.neededBytes);
    const available = formatBytes(m.availableBytes);
    const row = rows.get(`${needed}/${available}`) ?? { devices: [], needed, available };
    row.devices.push(m.device);
    rows.set(`${needed}/${available}`, row);
  }
  return [...rows.values()].map((r) => [
    r.devices.length === 1
      ? (r.devices[0] as string)
      : `${count(r.devices.length, 'device')} (${r.devices[0] ?? ''}, ...)`,
    r.needed,
    r.available,
  ]);
}

const percent = (a: number, b: number): string => `${((Math.abs(a - b) / b) * 100).toFixed(1)}%`;

/** How much worse the second plan is, by what the plans are ranked by (the step, or a serving objective). */
function nextBestText(r: PlanResponse, best: Plan, next: Plan): string {
  const [a, b] = [r.serving?.[0], r.serving?.[1]];
  if (!r.served || !a || !b) return `is ${percent(next.stepUs, best.stepUs)} slower`;
  return r.served.objective === 'latency'
    ? `takes ${percent(b.requestUs, a.requestUs)} longer a request`
    : `gives ${percent(b.maxBatchTokensPerSecond, a.maxBatchTokensPerSecond)} fewer tokens/s at its most concurrent sequences`;
}

const OBJECTIVE_TEXT = {
  latency: 'ranked by latency, a whole request at the batch',
  throughput: 'ranked by throughput, tokens/s at the most concurrent sequences that fit',
} as const;

/** The engine the serving figures are for, and how far its figures were from independent measurements. */
export function engineLine(r: Pick<PlanResponse, 'engine'>, s: ServingFigures | undefined): string | null {
  const e = r.engine;
  if (!e) return null;
  if (e.name === 'ideal')
    return 'Engine: none (--engine ideal): the kernel roofline, faster than any engine runs; give --engine to price one';
  const rules = `${e.title}, rules of ${e.since}`;
  if (!s?.band) return `Engine: ${rules}; no band yet: too few independent measurements of it were priced`;
  return (
    `Engine: ${rules}; 90% of ${s.band.cells} independent measurements took ${s.band.low.toFixed(2)}x-${s.band.high.toFixed(2)}x ` +
    'the times it predicted (bench/engines): read every figure below with that range'
  );
}

/** The simulated load of each plan: latency percentiles and throughput ("-" where one request does not fit). */
function loadLines(serving: readonly ServingFigures[]): string[] {
  const first = serving.find((s) => s.load)?.load;
  if (!first) return [];
  const what =
    first.kind === 'concurrency'
      ? `${count(first.level, 'user')} each keeping a request in flight`
      : first.kind === 'rate'
        ? `Poisson arrivals at ${first.level} requests/s`
        : `${count(first.level, 'request')} at once`;
  const pcts = (l: { p50: number; p90: number; p99: number }): string => `${ms(l.p50)} / ${ms(l.p90)} / ${ms(l.p99)}`;
  return [
    `Under load (${what}, ${count(first.requests, 'request')} simulated; p50 / p90 / p99):`,
    ...tableRows(
      ['#', 'TTFT', 'TPOT', 'END TO END', 'REQUESTS/S', 'OUTPUT TOKENS/S', 'PREEMPTIONS'],
      serving.map((s, i) =>
        s.load
          ? [
              i + 1,
              pcts(s.load.ttftUs),
              pcts(s.load.tpotUs),
              pcts(s.load.e2eUs),
              s.load.requestsPerSecond.toFixed(2),
              s.load.outputTokensPerSecond.toFixed(0),
              s.load.preemptions,
            ]
          : [i + 1, '-', '-', '-', '-', '-', '-'],
      ),
    ),
  ];
}

/** A listed plan (a rank, or the user's layout) and its serving figures. */
interface ServedRow {
  label: string | number;
  plan: Plan;
  figures: ServingFigures;
}

/**
 * Each plan's serving figures, in place of the training table: at the batch, and under continuous
 * batching at the most sequences that fit.
 */
function servingLines(
  r: PlanResponse,
  served: NonNullable<PlanResponse['served']>,
  rows: readonly ServedRow[],
): string[] {
  const about = `prompt ${served.prompt} + ${count(served.tokens, 'output token')} a request; ${OBJECTIVE_TEXT[served.objective]}`;
  const serving = rows.map((x) => x.figures);
  const engine = engineLine(r, serving[0]);
  return [
    `Serving (${about}):`,
    ...(engine ? [engine] : []),
    ...tableRows(
      [
        '#',
        'KIND',
        'FIRST TOKEN',
        'DECODE STEP',
        'TOKENS/S/SEQ',
        'REQUEST',
        `TOKENS/S AT ${r.problem.batch}`,
        'MAX CONCURRENT',
        'TOKENS/S THERE',
        'LONGEST CONTEXT',
        'STAGES',
      ],
      rows.map(({ label, plan, figures: s }) => [
        label,
        kindText(plan),
        ms(s.ttftUs),
        ms(s.decodeStepUs),
        s.tokensPerSecondPerSequence.toFixed(1),
        ms(s.requestUs),
        s.tokensPerSecond.toFixed(1),
        s.maxBatch,
        s.maxBatchTokensPerSecond.toFixed(0),
        s.maxContext,
        stagesText(plan),
      ]),
    ),
    ...loadLines(serving),
  ];
}

/** The training table: each plan's step, its band, throughput, schedule and stages. */
function trainingLines(r: PlanResponse, rows: readonly { label: string | number; plan: Plan }[]): string[] {
  const band = (p: Plan): StepBand | null =>
    p === r.layout?.plan ? (r.layout.band ?? null) : (r.stepBands[r.result.plans.indexOf(p)] ?? null);
  return [
    ...tableRows(
      ['#', 'KIND', 'STEP', 'BAND', 'SAMPLES/S', 'MICROBATCHES', 'BUBBLE', 'COMM', 'STAGES'],
      rows.map(({ label, plan: p }) => [
        label,
        kindText(p),
        `${ms(p.stepUs)}${p.feasible ? '' : ' (does not fit)'}`,
        bandText(band(p)),
        p.throughputSamplesPerS.toFixed(1),
        `${p.microbatches} ${(p.virtualStages ?? 1) > 1 ? scheduleText(p) : p.schedule}`,
        `${(p.bubbleFraction * 100).toFixed(0)}%`,
        `${(p.commFraction * 100).toFixed(0)}%`,
        stagesText(p),
      ]),
    ),
    ...(rows.some(({ plan }) => band(plan) !== null)
      ? [
          "BAND: the step's range, the widest of its devices': 90% for a profiled device (its measure-model checks of other models, or the prediction bench's), 5th-95th percentile of published measurements for a datasheet GPU",
        ]
      : []),
  ];
}

/** A served decoder's rows, each with its figures (the user's layout with its own); null when not serving. */
function servedRows(r: PlanResponse, rows: readonly { label: string | number; plan: Plan }[]): ServedRow[] | null {
  if (!r.served || !r.serving) return null;
  const out: ServedRow[] = [];
  rows.forEach(({ label, plan }, i) => {
    const figures = plan === r.layout?.plan ? r.layout.serving : r.serving?.[i];
    if (figures) out.push({ label, plan, figures });
  });
  return out;
}

/** "570 ms - 1.21 s": a step's band; '-' without one. */
function bandText(b: StepBand | null): string {
  return b ? `${ms(b.lowUs)} - ${ms(b.highUs)}` : '-';
}

/** "Stage compute per microbatch (90% band): [0-11] 12.30 ms (10.10 - 14.90 ms) | ...", or null without bands. */
function stageBandText(p: Plan, b: StepBand | null): string | null {
  if (!b || b.stages.length !== p.stages.length) return null;
  const parts = p.stages.map((s, i) => {
    const sb = b.stages[i];
    return sb ? `[${s.from}-${s.to - 1}] ${ms(sb.timeUs)} (${ms(sb.lowUs)} - ${ms(sb.highUs)})` : '';
  });
  return `Stage compute per microbatch (band): ${parts.join(' | ')}`;
}

/** "training", or "fine-tuning, QLoRA r16 alpha 32 on q,k,v,o,gate,up,down". */
function modeText(r: Pick<PlanResponse, 'problem' | 'finetune'>): string {
  const f = r.finetune;
  if (!f) return r.problem.mode;
  return `fine-tuning, ${f.adapter === 'qlora' ? 'QLoRA (NF4 base)' : 'LoRA'} r${f.rank} alpha ${f.alpha} on ${f.targets.join(',')}`;
}

/** `searched` false (`--no-search`): the layout was priced alone; no plan was searched or ranked beside it. */
export function renderPlans(r: PlanResponse, { searched = true }: { searched?: boolean } = {}): string {
  const { plans, searchMs } = r.result;
  // Plans that fit come first in the ranking; only they are listed as plans, the others are rejections.
  const feasible = plans.filter((p) => p.feasible);
  const how = searched ? `searched in ${searchMs.toFixed(0)} ms` : 'your layout priced alone, not searched';
  const out: string[] = [
    `${r.workload}: ${modeText(r)}, batch ${r.problem.batch}, ${count(r.problem.layers.length, 'layer')}, devices ${devicesText(r.problem.devices)}; ${how}`,
    assumptionsLine(r.assumptions),
    ...stackLines(r.assumptions),
    '',
  ];
  // The user's --layout is a row of its own, marked, after the ranked plans.
  const rows: { label: string | number; plan: Plan }[] = [
    ...feasible.map((p, i) => ({ label: i + 1, plan: p })),
    ...(r.layout ? [{ label: 'your layout', plan: r.layout.plan }] : []),
  ];
  // A served decoder's plans are told by their serving figures, a training plan's by its step.
  const served = servedRows(r, rows);
  if (r.served && served && served.length > 0) out.push(...servingLines(r, r.served, served));
  else if (rows.length > 0 && !served) out.push(...trainingLines(r, rows));
  const best = feasible[0];
  if (best) {
    out.push(
      '',
      `Best plan: ${best.kind}${best.optimizerOffload ? ' with the optimizer offloaded to the CPU' : ''}${best.recompute ? `, ${best.recompute} activation recomputation` : ''}${best.zeroStage ? `, ${zeroText(best.zeroStage)}` : ''}, bottleneck stage ${best.bottleneckStage}; memory per device:`,
    );
    out.push(...tableRows(['DEVICE', 'NEEDED', 'AVAILABLE'], memoryRows(best.memory)));
    const stageBands = r.served ? null : stageBandText(best, r.stepBands[r.result.plans.indexOf(best)] ?? null);
    if (stageBands) out.push(stageBands);
    const next = feasible[1];
    if (next)
      out.push(`Next best (${next.kind}) ${nextBestText(r, best, next)}: ${next.reasons[0] ?? stagesText(next)}`);
  } else if (searched) {
    out.push('No plan fits these devices.');
  }
  if (r.layout) out.push('', ...layoutLines(r.layout));
  const rejections = rejectionLines(r);
  if (rejections.length > 0) out.push('', 'Rejected:', ...rejections);
  if (!best && searched) out.push('', ...suggestionLines(r.suggestions));
  if (r.exports) out.push('', ...exportLines(r.exports, r.problem.mode));
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return textLines(out);
}

/** How to run the best plan: a serving plan's launch line, or a training plan's launchers. */
function exportLines(e: PlanExports, mode: Mode): string[] {
  if (e.kind === 'serving') {
    const { launch } = e;
    const files = launch.files.map((f) => f.name);
    return [
      'Run it (see --json for the full export):',
      launch.command
        ? `Launch (${launch.engine}): ${oneLine(launch.command)}${files.length > 0 ? ` (--emit writes ${files.join(', ')})` : ''}`
        : `Launch (${launch.engine}): none`,
      ...launch.warnings.slice(0, 5).map((w) => `  note: ${oneLine(w)}`),
    ];
  }
  const out = ['Run it (see --json for the full exports):'];
  // Under --stack, its own launcher only.
  const runs = (l: NonNullable<typeof e.launcher>) => e.launcher === null || e.launcher === l;
  if (runs('torch')) out.push(`torchrun:  ${e.torch.commands[0] ?? ''}`);
  if (runs('deepspeed')) out.push(`DeepSpeed: ${e.deepspeed.commands[0] ?? ''}`);
  if (runs('megatron')) out.push(`Megatron:  ${e.megatron.commands[0] ?? ''}`);
  if (mode === 'training' && e.launcher === null)
    out.push(`accelerate: ${e.accelerate.command} (--emit writes accelerate.yaml, train_accelerate.py)`);
  if (e.finetune)
    out.push(`LoRA:      ${e.finetune.launch[0] ?? ''} (--emit writes train_lora.py, launch_lora.sh, axolotl.yaml)`);
  const engineWarnings = [
    ...(e.finetune?.warnings ?? []),
    ...(runs('torch') ? e.torch.warnings : []),
    ...(runs('deepspeed') ? e.deepspeed.warnings : []),
    ...(runs('megatron') ? e.megatron.warnings : []),
  ];
  for (const w of [...new Set(engineWarnings)].slice(0, 5)) out.push(`  note: ${w}`);
  return out;
}
