/**
 * Fits an engine's free numbers on its calibration cells only (its own first-party publications;
 * bench/engines/cells.ts states the rule), by coordinate descent on the mean of |log(predicted /
 * published)| (clipped at 1). It never reads a held-out cell. It prints the fitted values; they are
 * written into the engine's rule file by hand with the sources they came from.
 * Run: npm run bench:engines-calibrate -- --engine NAME [--per-source N] [--rounds N] [--only PREFIX]
 * (--only: fit just the knobs whose name starts with PREFIX, the others kept at their file values).
 */
import path from 'node:path';
import { openDatabase } from '../../src-main/adapters/store/open-database.js';
import { allEngineRules } from '../../src-main/core/engines/engines.js';
import type { EngineName } from '../../src-main/core/engines/engine-names.js';
import type { EngineRules } from '../../src-main/core/engines/engine-rules.js';
import { WEIGHT_KERNELS, type WeightKernel } from '../../src-main/core/engines/weight-kernels.js';
import { layoutRepricer } from '../../src-main/services/plan/plan-service.js';
import { loadEngineTable } from './cells.js';
import { cellQuery, expressed, readFigure } from './engine-cell.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const engine = (arg('engine') ?? 'tensorrt-llm') as EngineName;
const perSource = Number(arg('per-source') ?? 30);
const rounds = Number(arg('rounds') ?? 3);

interface Knob {
  name: string;
  /** Multiplies every version's value; 1 at the start. */
  scale(f: number): void;
  factor: number;
}

/** A field of every version's rules of the engine, scaled together (versions keep their differences). */
function ruleKnob(
  name: string,
  pick: (r: EngineRules) => Record<string, number>,
  key: string,
  max?: number,
  min = 0,
): Knob {
  const objects = [
    ...new Set(
      allEngineRules()
        .filter((r) => r.name === engine)
        .map(pick),
    ),
  ];
  const base = objects.map((o) => o[key] as number);
  const knob: Knob = {
    name,
    factor: 1,
    scale(f) {
      knob.factor = f;
      objects.forEach((o, i) => (o[key] = Math.max(min, Math.min(max ?? Infinity, (base[i] as number) * f))));
    },
  };
  return knob;
}

function kernelKnob(kernel: keyof typeof WEIGHT_KERNELS, key: 'stream' | 'gemm'): Knob {
  const k = WEIGHT_KERNELS[kernel] as WeightKernel as unknown as Record<string, number>;
  const base = k[key] as number;
  const knob: Knob = {
    name: `${kernel}.${key}`,
    factor: 1,
    scale(f) {
      knob.factor = f;
      // A kernel reaches at least a third of the rate it is built for: below that, the knob is a sink for something else.
      k[key] = Math.max(0.3, Math.min(1, base * f));
    },
  };
  return knob;
}

/**
 * A GEMV's Little-law bytes per SM cycle (weight-kernels.ts), at least a tenth of a byte; one knob
 * for kernels that run the same GEMV (llama.cpp's MMVQ under 'ggml' and 'ggml-cublas').
 */
function inFlightKnob(name: string, ...kernels: (keyof typeof WEIGHT_KERNELS)[]): Knob {
  const ks = kernels.map((kernel) => WEIGHT_KERNELS[kernel] as WeightKernel as unknown as Record<string, number>);
  const bases = ks.map((k) => k.smBytesPerCycle as number);
  const knob: Knob = {
    name: `${name}.smBytesPerCycle`,
    factor: 1,
    scale(f) {
      knob.factor = f;
      ks.forEach((k, i) => (k.smBytesPerCycle = Math.max(0.1, (bases[i] as number) * f)));
    },
  };
  return knob;
}

const host = (r: EngineRules) => r.host as unknown as Record<string, number>;
const att = (r: EngineRules) => r.attention as unknown as Record<string, number>;
const launches = (r: EngineRules) => r.launches as unknown as Record<string, number>;
const split = (r: EngineRules) => r.split as unknown as Record<string, number>;
const common = (): Knob[] => [
  ruleKnob('host.stepUs', host, 'stepUs'),
  ruleKnob('host.perSequenceUs', host, 'perSequenceUs'),
  ruleKnob('host.perRankUs', host, 'perRankUs'),
  ruleKnob('launches.gpuUs', launches, 'gpuUs'),
  ruleKnob('attention.prefillShare', att, 'prefillShare', 1, 0.3),
  ruleKnob('attention.decodeShare', att, 'decodeShare', 1, 0.3),
  ruleKnob('split.allReduceUs', split, 'allReduceUs'),
];
/**
 * The numbers fitted per engine: as many as its calibration cells can tell apart (an engine with a
 * handful of first-party cells fits its host's fixed cost, and its per-rank cost when the cells vary
 * the tensor-parallel degree); the rest keep the values its rule file states from its source.
 */
const KNOBS: Record<EngineName, () => Knob[]> = {
  'tensorrt-llm': () => [
    ...common(),
    ruleKnob(
      'memory.activationBytesPerTokenPerHidden',
      (r) => r.memory as unknown as Record<string, number>,
      'activationBytesPerTokenPerHidden',
    ),
    kernelKnob('marlin', 'gemm'),
    ruleKnob(
      'attention.queryHeadRate',
      (r) => (r.attention.paged ?? {}) as unknown as Record<string, number>,
      'queryHeadRate',
    ),
  ],
  vllm: () => [ruleKnob('host.stepUs', host, 'stepUs'), ruleKnob('host.perRankUs', host, 'perRankUs')],
  sglang: () => [ruleKnob('host.stepUs', host, 'stepUs'), ruleKnob('host.perSequenceUs', host, 'perSequenceUs')],
  tgi: () => [ruleKnob('host.stepUs', host, 'stepUs')],
  'llama.cpp': () => [
    ...common(),
    ruleKnob(
      'flashAttention.prefillShare',
      (r) => (r.flashAttention ?? r.attention) as unknown as Record<string, number>,
      'prefillShare',
      1,
      0.3,
    ),
    ruleKnob(
      'flashAttention.decodeShare',
      (r) => (r.flashAttention ?? r.attention) as unknown as Record<string, number>,
      'decodeShare',
      1,
      0.3,
    ),
    ruleKnob('host.launchUs', host, 'launchUs'),
    ruleKnob('launches.streamGapUs', launches, 'streamGapUs'),
    kernelKnob('ggml', 'stream'),
    kernelKnob('ggml', 'gemm'),
    kernelKnob('ggml-cublas', 'stream'),
    kernelKnob('ggml-cublas', 'gemm'),
    kernelKnob('ggml-f16', 'gemm'),
    inFlightKnob('ggml-f16', 'ggml-f16'),
    inFlightKnob('mmvq', 'ggml', 'ggml-cublas'),
  ],
  exllamav2: () => [
    ruleKnob('host.stepUs', host, 'stepUs'),
    ruleKnob('host.launchUs', host, 'launchUs'),
    ruleKnob('attention.decodeShare', att, 'decodeShare', 1, 0.3),
    kernelKnob('exl2', 'stream'),
  ],
  transformers: () => [
    ruleKnob('host.stepUs', host, 'stepUs'),
    ruleKnob('host.launchUs', host, 'launchUs'),
    ruleKnob('attention.prefillShare', att, 'prefillShare', 1, 0.3),
    kernelKnob('awq-gemm', 'stream'),
    kernelKnob('awq-gemm', 'gemm'),
  ],
};

const table = loadEngineTable(path.join('bench', 'engines'));
const db = openDatabase(':memory:');
const bySource = new Map<string, typeof table.cells>();
for (const c of table.cells) {
  if (c.engine !== engine || table.sources.get(c.source)?.set !== 'calibration') continue;
  bySource.set(c.source, [...(bySource.get(c.source) ?? []), c]);
}
// At most perSource cells of each source, spread over it.
const chosen = [...bySource.values()].flatMap((cs) => {
  const step = Math.max(1, Math.floor(cs.length / perSource));
  return cs.filter((_, i) => i % step === 0).slice(0, perSource);
});
const cases = chosen.flatMap((c) => {
  const r = expressed(c.id, () => {
    const q = cellQuery(c, table.sources.get(c.source)?.date);
    return { c, q, price: layoutRepricer(db, q.request) };
  });
  return 'notExpressible' in r ? [] : [r];
});
console.log(
  `${engine}: ${cases.length} calibration cells priced of ${chosen.length} chosen (${bySource.size} sources)`,
);

function loss(): { loss: number; median: number; n: number } {
  const errs: number[] = [];
  for (const x of cases) {
    const v = expressed(x.c.id, () => readFigure(x.q, x.price()));
    if (typeof v === 'number') errs.push(Math.log(v / x.c.value));
  }
  const abs = errs.map(Math.abs).sort((a, b) => a - b);
  const mean = abs.reduce((a, e) => a + Math.min(e, 1), 0) / Math.max(1, abs.length);
  return {
    loss: mean + (cases.length - errs.length) / Math.max(1, cases.length),
    median: abs[Math.floor(abs.length / 2)] ?? NaN,
    n: errs.length,
  };
}

const only = arg('only');
const knobs = KNOBS[engine]().filter((k) => only === undefined || k.name.startsWith(only));
let best = loss();
console.log(
  `start: mean |log| ${best.loss.toFixed(4)}, median |error| ${((Math.exp(best.median) - 1) * 100).toFixed(1)}% over ${best.n}`,
);
for (let round = 0; round < rounds; round++) {
  for (const k of knobs) {
    const start = k.factor;
    let chosenFactor = start;
    for (const f of [0.4, 0.6, 0.8, 0.9, 1.1, 1.25, 1.6, 2.5]) {
      k.scale(start * f);
      const l = loss();
      if (l.loss < best.loss - 1e-4) {
        best = l;
        chosenFactor = start * f;
      }
    }
    k.scale(chosenFactor);
    // Keep the best factor found for this knob.
    console.log(
      `  round ${round + 1} ${k.name} x${k.factor.toFixed(3)}: mean |log| ${best.loss.toFixed(4)}, median ${((Math.exp(best.median) - 1) * 100).toFixed(1)}%`,
    );
  }
}
console.log('fitted factors (multiply the file values):');
for (const k of knobs) console.log(`  ${k.name}: x${k.factor.toFixed(3)}`);
console.log('sources:', [...bySource.keys()].join(', '));
