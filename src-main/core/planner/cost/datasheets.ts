/**
 * GPU datasheets (models/gpus.json, validated here): vendor peak figures for devices nobody
 * profiled. A virtual device is a PlanDevice marked 'datasheet' plus the roofline the predictor
 * uses for it: datasheet peaks scaled by achieved fractions ("efficiencies"), ideally the
 * fractions a profiled GPU reached against its own datasheet (transferEfficiencies). Pure.
 */
import { TEXT_LIMITS } from '../../workload/limits.js';
import { quoted } from '../../text/shown.js';
import { z } from 'zod';
import gpuFile from '../../../../models/gpus.json' with { type: 'json' };
import { pcieBandwidthGBps } from '../../domain/devices.js';
import { GPU_ARCHITECTURE_NAMES } from '../../domain/gpu-architectures.js';
import type { Dtype } from '../../domain/measurement.js';
import { UserError } from '../../errors.js';
import { editDistance } from '../../text/edit-distance.js';
import type { DeviceFeatures } from '../../predictor/types.js';
import type { DeviceSummary } from '../../profiler/device-summary.js';
import type { PlanDevice } from '../types.js';
import { architectureEfficiency, memoryEfficiency } from '../../predictor/kernel-efficiency.js';
import {
  compactGpuName,
  endsWithWords,
  FAMILY_RULE_TEXT,
  familyPick,
  isFamilyPart,
  namesHoldWords,
  normalizeGpuName,
  typedWords,
} from './gpu-names.js';
import { series } from '../../text/series.js';

const tflops = z.number().positive().nullable();

const GpuDatasheetSchema = z.strictObject({
  /** Datasheet id, e.g. "h100-sxm5-80gb". */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  architecture: z.enum(GPU_ARCHITECTURE_NAMES),
  computeCapability: z.string().regex(/^\d+\.\d+$/),
  /** 'sxm': a board module (unprobed pairs are linked over all NVLinks, as through NVSwitch); 'pcie': a card. */
  formFactor: z.enum(['sxm', 'pcie']),
  smCount: z.number().int().positive(),
  boostClockMHz: z.number().positive(),
  memory: z.strictObject({ type: z.string(), sizeGiB: z.number().positive(), bandwidthGBps: z.number().positive() }),
  /** Dense peak TFLOP/s (TOP/s for int8); fp16/bf16 with fp32 accumulation; null: no such unit. */
  tflops: z.strictObject({
    fp32: z.number().positive(),
    tf32: tflops,
    fp16: tflops,
    /** GeForce: fp16 tensor math with fp16 accumulation (twice the fp32-accumulate rate). */
    fp16AccFp16: tflops.optional(),
    bf16: tflops,
    /** fp8 tensor math (Ada, Hopper, Blackwell; Transformer Engine GEMMs), fp32 accumulation; absent: no fp8 units. */
    fp8: tflops.optional(),
    /** fp4 tensor math (Blackwell: NVFP4/MXFP4), dense; absent: no fp4 units. */
    fp4: tflops.optional(),
    int8: tflops,
  }),
  /** NVLink: links of the GPU and GB/s per link and direction; null without NVLink. */
  nvlink: z
    .strictObject({
      generation: z.number().int().positive(),
      links: z.number().int().positive(),
      gbpsPerLink: z.number().positive(),
      /** The NVLink Switch of its boards reduces in the switch (NVLS, NVLink SHARP: NVSwitch gen 3 on). */
      nvls: z.boolean().optional(),
    })
    .nullable(),
  pcie: z.strictObject({ gen: z.number().int().min(1).max(6), lanes: z.number().int().positive() }),
  /** Other names, nvidia-smi's first: matched after normalizeGpuName. */
  aliases: z.array(z.string()),
  sources: z.array(z.string().min(1)).min(1),
  notes: z.string().optional(),
});
export type GpuDatasheet = z.infer<typeof GpuDatasheetSchema>;

const GpuFileSchema = z.strictObject({ about: z.string(), gpus: z.array(GpuDatasheetSchema).min(1) });

function load(): { list: readonly GpuDatasheet[]; byName: ReadonlyMap<string, GpuDatasheet> } {
  const list = GpuFileSchema.parse(gpuFile).gpus;
  const byName = new Map<string, GpuDatasheet>();
  for (const g of list) {
    for (const n of new Set([g.id, g.name, ...g.aliases].map(normalizeGpuName))) {
      const other = byName.get(n);
      if (other) throw new Error(`models/gpus.json: "${n}" names both ${other.id} and ${g.id}`);
      byName.set(n, g);
    }
  }
  return { list: Object.freeze(list), byName };
}

const DATASHEETS = load();

/** Every datasheet, in file order. */
export const GPU_DATASHEETS: readonly GpuDatasheet[] = DATASHEETS.list;

/**
 * The datasheet of a GPU by nvidia-smi name ("NVIDIA H100 80GB HBM3"), datasheet name, alias or id;
 * null when unknown. Exact after normalisation, so "RTX 4090 D" or "... Laptop GPU" match nothing.
 */
export function datasheetFor(gpuName: string): GpuDatasheet | null {
  return DATASHEETS.byName.get(normalizeGpuName(gpuName)) ?? null;
}

/** Whether the GPU has fp8 tensor units (Ada, Hopper, Blackwell): its datasheet gives an fp8 rate. */
export function hasFp8(d: GpuDatasheet): boolean {
  return d.tflops.fp8 !== undefined && d.tflops.fp8 !== null;
}

/** NVLink GB/s per direction to one peer with all links bonded; null without NVLink. */
export function nvlinkGBps(d: GpuDatasheet): number | null {
  return d.nvlink === null ? null : d.nvlink.links * d.nvlink.gbpsPerLink;
}

/** PCIe GB/s per direction of the GPU's own interface. */
export function datasheetPcieGBps(d: GpuDatasheet): number {
  return pcieBandwidthGBps(d.pcie.gen, d.pcie.lanes) ?? 0;
}

/**
 * Achieved fractions of datasheet peaks, as features of a virtual device. Without a profile to
 * transfer from: defaultEfficiencies (the architecture's and memory type's calibrated fractions;
 * 0.7 of fp32 and 0.5 of int8 otherwise); a profiled GPU's own fractions are better. The plan
 * prices datasheet GPUs with the datasheet predictor, which uses the per-kernel fractions.
 */
export interface Efficiencies {
  fp32: number;
  fp16: number;
  bf16: number;
  int8: number;
  bandwidth: number;
  /** fp32 GEMMs run on TF32 tensor cores (ONNX Runtime's CUDA EP allows TF32 by default on Ampere+). */
  fp32UsesTf32: boolean;
}

export const DEFAULT_EFFICIENCIES: Readonly<Efficiencies> = Object.freeze({
  fp32: 0.7,
  fp16: 0.6,
  bf16: 0.6,
  int8: 0.5,
  bandwidth: 0.8,
  fp32UsesTf32: false,
});

/**
 * A GPU's own default fractions: its architecture's large-GEMM fraction for fp16/bf16 and its
 * memory type's achieved bandwidth (models/gpu-kernels.json, calibrated on published cells);
 * DEFAULT_EFFICIENCIES for the rest.
 */
export function defaultEfficiencies(d: GpuDatasheet): Efficiencies {
  const gemm = architectureEfficiency(d.architecture).gemm;
  return { ...DEFAULT_EFFICIENCIES, fp16: gemm, bf16: gemm, bandwidth: memoryEfficiency(d.memory.type) };
}

/** Kernel dispatch time of a virtual GPU when no profiled device gives one (µs). */
const DEFAULT_DISPATCH_US = 5;
/** Memory kept back from a virtual GPU's datasheet size: CUDA context and driver reservations. */
const DEFAULT_RESERVE_BYTES = 2 ** 30;

type ComputeDtype = 'fp32' | 'fp16' | 'bf16' | 'int8';
const COMPUTE_DTYPES: readonly ComputeDtype[] = ['fp32', 'fp16', 'bf16', 'int8'];

/** Datasheet peak GFLOP/s for a dtype as the predictor uses it, or null without such units. */
function peakGflops(d: GpuDatasheet, dtype: ComputeDtype, tf32: boolean): number | null {
  const t = dtype === 'fp32' && tf32 && d.tflops.tf32 !== null ? d.tflops.tf32 : d.tflops[dtype];
  return t === null ? null : t * 1000;
}

export interface TransferredEfficiencies {
  /** The reference GPU's datasheet. */
  datasheet: GpuDatasheet;
  efficiencies: Efficiencies;
  /** Which fractions were measured (the others are the reference's defaultEfficiencies). */
  measured: Record<ComputeDtype | 'bandwidth', boolean>;
  /** The reference's dispatch time (µs), or null when it has none. */
  dispatchUs: number | null;
  warnings: string[];
}

/**
 * Achieved fractions of a profiled GPU: measured peak GFLOP/s per dtype and DRAM bandwidth over
 * the same GPU's datasheet figures. Applied to a virtual GPU, they assume its kernels reach the
 * same share of its own peaks (closest within one architecture). A fraction above 1.05 is
 * clamped to 1 with a warning; an fp32 peak above the fp32 datasheet figure means fp32 GEMMs ran
 * on TF32 tensor cores, and the fraction is taken against the TF32 peak instead.
 */
export function transferEfficiencies(
  gpuName: string,
  summary: Pick<DeviceSummary, 'peakGflops' | 'bandwidthGBps' | 'dispatchOverheadUs'>,
): TransferredEfficiencies {
  const ds = requireDatasheet(gpuName);
  const eff: Efficiencies = defaultEfficiencies(ds);
  const measured = { fp32: false, fp16: false, bf16: false, int8: false, bandwidth: false };
  const warnings: string[] = [];
  const fraction = (what: string, got: number, peak: number): number => {
    const f = got / peak;
    if (f > 1.05) warnings.push(`${ds.name}: measured ${what} is ${f.toFixed(2)}x the datasheet figure; using 1`);
    return Math.min(f, 1);
  };
  for (const dtype of COMPUTE_DTYPES) {
    const got = summary.peakGflops[dtype as Dtype];
    const peak = peakGflops(ds, dtype, false);
    if (got === undefined || !(got > 0) || peak === null) continue;
    const tf32 = ds.tflops.tf32 === null ? null : ds.tflops.tf32 * 1000;
    if (dtype === 'fp32' && got > peak * 1.05 && tf32 !== null) {
      eff.fp32UsesTf32 = true;
      eff.fp32 = fraction('fp32 (TF32) GFLOP/s', got, tf32);
    } else {
      eff[dtype] = fraction(`${dtype} GFLOP/s`, got, peak);
    }
    measured[dtype] = true;
  }
  if (summary.bandwidthGBps !== null && summary.bandwidthGBps > 0) {
    eff.bandwidth = fraction('bandwidth', summary.bandwidthGBps, ds.memory.bandwidthGBps);
    measured.bandwidth = true;
  }
  return { datasheet: ds, efficiencies: eff, measured, dispatchUs: summary.dispatchOverheadUs, warnings };
}

function requireDatasheet(name: string): GpuDatasheet {
  const ds = datasheetFor(name);
  if (!ds) {
    throw new UserError(`no datasheet for GPU ${quoted(name)}; known: ${GPU_DATASHEETS.map((g) => g.name).join(', ')}`);
  }
  return ds;
}

const namesOf = (g: GpuDatasheet): string[] => [g.id, g.name, ...g.aliases];

/** How far a typed name is from a datasheet: the closest of its names, compacted. */
function distanceTo(typed: string, g: GpuDatasheet): number {
  const t = compactGpuName(typed);
  return Math.min(...namesOf(g).map((n) => editDistance(t, compactGpuName(n))));
}

/** At most three datasheets, closest to the typed name first, as "A, B or C". */
function closestNames(typed: string, among: readonly GpuDatasheet[]): string {
  const names = [...among]
    .map((g, i) => ({ g, i, d: distanceTo(typed, g) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, 3)
    .map((x) => `"${x.g.name}"`);
  return series(names);
}

/** The datasheet a name gives exactly: an id, name or alias, after normalisation or compacted. */
function exactDatasheet(typed: string): GpuDatasheet | undefined {
  const c = compactGpuName(typed);
  return datasheetFor(typed) ?? GPU_DATASHEETS.find((g) => namesOf(g).some((n) => compactGpuName(n) === c));
}

/**
 * The datasheets a typed name may mean, in file order: the one it names exactly, else every one
 * with a name holding all its words ("h100": the SXM5 and the PCIe). `pipedejavu gpus TEXT` lists these.
 */
export function gpuNameMatches(typed: string): GpuDatasheet[] {
  const exact = exactDatasheet(typed);
  if (exact) return [exact];
  const words = typedWords(typed);
  return GPU_DATASHEETS.filter((g) => namesHoldWords(namesOf(g), words));
}

/** A typed name's datasheet, and a line saying which part a family name stood for (null when it named one GPU). */
export interface ResolvedGpuName {
  datasheet: GpuDatasheet;
  note: string | null;
}

/**
 * The datasheet of a GPU name as a person types it: case, spaces, punctuation and vendor words
 * ignored ("h100 sxm5", "H100SXM5"), and a part of a name enough when it names one GPU ("4090"
 * is the RTX 4090), when one of the GPUs it is part of ends with it ("3090" is the RTX 3090,
 * not the 3090 Ti), or when it is the family of every GPU it matches, told apart only by form
 * factor and memory ("h100": the SXM5 and the PCIe; familyPick takes the SXM part with the most
 * memory, and the note says so). Other ambiguity ("6000": the RTX 6000 Ada, the RTX PRO 6000,
 * the RTX A6000) or no match: a UserError naming the three closest.
 */
export function resolveGpuNameWithNote(typed: string): ResolvedGpuName {
  const matches = gpuNameMatches(typed);
  if (matches.length === 1 && matches[0]) return { datasheet: matches[0], note: null };
  const words = typedWords(typed);
  const plain = matches.filter((g) => namesOf(g).some((n) => endsWithWords(n, words)));
  if (plain.length === 1 && plain[0]) return { datasheet: plain[0], note: null };
  const family = matches.every((g) => namesOf(g).some((n) => isFamilyPart(n, words))) ? familyPick(matches) : undefined;
  if (family) {
    const others = closestNames(
      typed,
      matches.filter((g) => g !== family),
    );
    return {
      datasheet: family,
      note: `${quoted(typed)} stands for ${family.name} (of ${matches.length} that match: ${FAMILY_RULE_TEXT}); name ${others} for another`,
    };
  }
  if (matches.length > 1) {
    throw new UserError(
      `several datasheet GPUs match ${quoted(typed)}: did you mean ${closestNames(typed, matches)}? (name one; see \`pipedejavu gpus\`)`,
    );
  }
  throw new UserError(
    `no datasheet for GPU ${quoted(typed)}; did you mean ${closestNames(typed, GPU_DATASHEETS)}? (see \`pipedejavu gpus\`)`,
  );
}

/** resolveGpuNameWithNote's datasheet, for callers that report no note. */
export function resolveGpuName(typed: string): GpuDatasheet {
  return resolveGpuNameWithNote(typed).datasheet;
}

/** Datasheet GPUs one plan may hold (all `--virtual` entries together) when they are of several kinds. */
export const MAX_VIRTUAL_GPUS = 256;

/**
 * Datasheet GPUs of one kind a plan may hold: whole nodes of 8 (virtual-nodes.ts), linked by node
 * (a link per pair inside a node, one node-level link between nodes: links.ts) and searched as
 * like nodes (search/uniform-search.ts); the largest clusters trained on today (16,384 H100s).
 */
export const MAX_VIRTUAL_CLUSTER_GPUS = 16_384;

/** GPUs of a node a cluster past MAX_VIRTUAL_GPUS comes in (virtual-nodes.ts GPUS_PER_VIRTUAL_NODE). */
const CLUSTER_NODE_GPUS = 8;

/** The longest `--virtual` entry read ("8x NVIDIA GeForce RTX 4080 SUPER" is 32). */
const MAX_GPU_NAME_CHARS = TEXT_LIMITS.gpuName;

export interface VirtualGpuRequest {
  datasheet: GpuDatasheet;
  count: number;
  /** Which part a family name ("4xH100") stood for; null when the name named one GPU. */
  note: string | null;
}

const COUNTED_NAME = /^\s*(\d+)\s*[x×*]\s*(\S.*)$/i;

/** The GPU name of a `--virtual` entry, less its count ("4xH100" -> "H100"). */
export function virtualGpuName(item: string): string {
  return (COUNTED_NAME.exec(item)?.[2] ?? item).trim();
}

/** "8xH100 SXM5", "8x h100 sxm5", "2 x 4090" (a count and a name), or a name alone (one GPU). */
function parseVirtualItem(item: string): VirtualGpuRequest {
  // Names are short; a longer one is no GPU name and is refused before any matching.
  if (item.length > MAX_GPU_NAME_CHARS) {
    throw new UserError(
      `a --virtual entry of ${item.length} characters is no GPU name (at most ${MAX_GPU_NAME_CHARS})`,
    );
  }
  const m = COUNTED_NAME.exec(item);
  const name = virtualGpuName(item);
  const n = m ? Number(m[1]) : 1;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UserError(
      `${quoted(item.trim())}: the count before x must be a whole number of GPUs from 1 to ${MAX_VIRTUAL_CLUSTER_GPUS}`,
    );
  }
  return { ...resolveGpuNameWithNote(name), count: n };
}

/**
 * The datasheet GPUs of a request: each item a name ("RTX 4090"; repeat it for more) or a count
 * and a name ("8xH100 SXM5"), at most MAX_VIRTUAL_GPUS in all.
 */
export function parseVirtualGpus(items: readonly string[]): VirtualGpuRequest[] {
  const named = items.filter((x) => x.trim() !== '');
  if (named.length > MAX_VIRTUAL_GPUS) {
    throw new UserError(`--virtual names ${named.length} entries; a plan takes at most ${MAX_VIRTUAL_GPUS} GPUs`);
  }
  const out = named.map(parseVirtualItem);
  const total = out.reduce((sum, g) => sum + g.count, 0);
  if (total <= MAX_VIRTUAL_GPUS) return out;
  const kinds = new Set(out.map((g) => g.datasheet.id)).size;
  if (kinds > 1 || total > MAX_VIRTUAL_CLUSTER_GPUS || total % CLUSTER_NODE_GPUS !== 0) {
    throw new UserError(
      `--virtual asks for ${total} datasheet GPUs${kinds > 1 ? ` of ${kinds} kinds` : ''}; a plan takes at most ${MAX_VIRTUAL_GPUS}, or up to ${MAX_VIRTUAL_CLUSTER_GPUS} of one kind in whole nodes of ${CLUSTER_NODE_GPUS} (plan a replica and scale it, or import measured machines)`,
    );
  }
  return out;
}

export interface VirtualDeviceOptions {
  /** Machine the device is placed on (default "virtual"). */
  machine?: string;
  /** Tells several GPUs of one model apart: id "<machine>/<gpu id>:<index>". */
  index?: number;
  /** Achieved fractions from a profiled GPU; its dispatch time and TF32 use carry over. */
  transfer?: TransferredEfficiencies;
  /** Overrides of individual fractions (after transfer). */
  efficiencies?: Partial<Efficiencies>;
  dispatchUs?: number;
  reserveBytes?: number;
}

export interface VirtualDevice {
  device: PlanDevice;
  datasheet: GpuDatasheet;
  /** The roofline to predict with: datasheet peaks x efficiencies. */
  features: DeviceFeatures;
  efficiencies: Efficiencies;
  warnings: string[];
}

/** A GPU from its datasheet (name as datasheetFor takes it); UserError for an unknown name. */
export function virtualDevice(name: string, opts: VirtualDeviceOptions = {}): VirtualDevice {
  const ds = requireDatasheet(name);
  const machine = opts.machine ?? 'virtual';
  const id = `${machine}/${ds.id}${opts.index === undefined ? '' : `:${opts.index}`}`;
  const warnings: string[] = [];
  const t = opts.transfer;
  if (t) {
    warnings.push(...t.warnings);
    if (t.datasheet.architecture !== ds.architecture) {
      warnings.push(
        `${ds.name}: efficiencies come from a ${t.datasheet.architecture} GPU (${t.datasheet.name}); across architectures they transfer only roughly`,
      );
    }
  }
  const eff: Efficiencies = { ...defaultEfficiencies(ds), ...t?.efficiencies, ...opts.efficiencies };
  const peaks: Partial<Record<Dtype, number>> = {};
  for (const dtype of COMPUTE_DTYPES) {
    const tf32 = dtype === 'fp32' && eff.fp32UsesTf32 && ds.tflops.tf32 !== null;
    const peak = peakGflops(ds, dtype, tf32);
    // A TF32 fraction does not fit a GPU without TF32: fall back to the default fp32 fraction.
    const f = dtype === 'fp32' && eff.fp32UsesTf32 && !tf32 ? DEFAULT_EFFICIENCIES.fp32 : eff[dtype];
    if (peak !== null) peaks[dtype] = peak * f;
  }
  const memoryBytes = Math.max(0, ds.memory.sizeGiB * 2 ** 30 - (opts.reserveBytes ?? DEFAULT_RESERVE_BYTES));
  return {
    device: { id, name: ds.name, kind: 'gpu', machine, memoryBytes, estimate: 'datasheet' },
    datasheet: ds,
    features: {
      deviceId: id,
      kind: 'gpu',
      peakGflops: peaks,
      bandwidthGBps: ds.memory.bandwidthGBps * eff.bandwidth,
      dispatchUs: opts.dispatchUs ?? t?.dispatchUs ?? DEFAULT_DISPATCH_US,
      threads: null,
      l2Bytes: null,
      l3Bytes: null,
      smCount: ds.smCount,
      smClockMHz: ds.boostClockMHz,
    },
    efficiencies: eff,
    warnings,
  };
}
