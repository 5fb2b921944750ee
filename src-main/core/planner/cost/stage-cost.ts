/**
 * Stage compute and communication times from per-layer, per-sample times. Pure.
 *
 * - A stage on one device: samples × Σ per-sample layer time (forward + backward when training,
 *   forward for inference).
 * - A data-parallel stage: each microbatch is split in whole samples in proportion to device speed
 *   (the split that minimizes the slowest replica); the stage time is the slowest replica's.
 * - Gradient synchronization of a data-parallel stage, once per step (training): all-reduce of its
 *   fp16 gradients (ZeRO-1/2 move the same volume as reduce-scatter + all-gather; ZeRO-3 gathers
 *   the parameters again: 1.5×).
 * - A cut: the microbatch's activations after the stage's last layer over the slowest link between
 *   the two stages' devices.
 * Every search and evaluation goes through these functions, so equal plans cost exactly the same.
 */
import type { CostModel } from './cost-model.js';
import { GRAD_BYTES_PER_PARAM, OFFLOAD_CPU_BYTES_PER_PARAM, WEIGHT_BYTES_PER_PARAM } from './memory.js';
import type { PlanProblem } from '../types.js';

/**
 * Whole samples per device minimizing max(samples_d × perSampleUs_d): the floor of the
 * proportional share, then each leftover sample to the device that would finish it first (this
 * takes the `samples` smallest values of {j·c_d}, so it is optimal). Alike devices, devices with zero
 * time (they take everything), or devices with no finite time get the samples dealt round-robin.
 */
export function splitSamples(samples: number, perSampleUs: readonly number[]): number[] {
  const n = perSampleUs.length;
  const shares = new Array<number>(n).fill(0);
  if (n === 0 || samples <= 0) return shares;
  const c0 = perSampleUs[0] as number;
  let equal = true;
  let zeros = 0;
  let finite = 0;
  for (const c of perSampleUs) {
    if (c !== c0) equal = false;
    if (c === 0) zeros++;
    else if (c > 0 && Number.isFinite(c)) finite++;
  }
  if (equal || zeros > 0 || finite === 0) {
    // Deal round-robin: over all devices when they are alike, else over the zero-time ones.
    const to = equal
      ? perSampleUs.map((_, i) => i)
      : perSampleUs.flatMap((c, i) => (c === 0 || zeros === 0 ? [i] : []));
    for (let s = 0; s < samples; s++) {
      const i = to[s % to.length] as number;
      shares[i] = (shares[i] as number) + 1;
    }
    return shares;
  }
  const ok = (i: number): boolean => {
    const c = perSampleUs[i] as number;
    return c > 0 && Number.isFinite(c);
  };
  let speed = 0;
  for (let i = 0; i < n; i++) if (ok(i)) speed += 1 / (perSampleUs[i] as number);
  let given = 0;
  for (let i = 0; i < n; i++) {
    if (!ok(i)) continue;
    const s = Math.floor((samples * (1 / (perSampleUs[i] as number))) / speed);
    shares[i] = s;
    given += s;
  }
  const load = (i: number): number => (shares[i] as number) * (perSampleUs[i] as number);
  while (given > samples) {
    // Rounding guard: take back from the replica that finishes last.
    let worst = -1;
    for (let i = 0; i < n; i++)
      if (ok(i) && (shares[i] as number) > 0 && (worst < 0 || load(i) > load(worst))) worst = i;
    shares[worst] = (shares[worst] as number) - 1;
    given--;
  }
  while (given < samples) {
    let pick = -1;
    let pickEnd = Infinity;
    for (let i = 0; i < n; i++) {
      if (!ok(i)) continue;
      const end = ((shares[i] as number) + 1) * (perSampleUs[i] as number);
      if (end < pickEnd) {
        pick = i;
        pickEnd = end;
      }
    }
    shares[pick] = (shares[pick] as number) + 1;
    given++;
  }
  return shares;
}

export interface StageSplit {
  /** Per-microbatch compute time of the stage (slowest replica), µs. */
  timeUs: number;
  /** Samples of one microbatch per device (same order as the devices). */
  shares: number[];
  /** Position of the slowest replica. */
  slowest: number;
}

/** Prefix sums of the problem's layers; every stage cost the planner uses. */
export class CostTables {
  readonly layerCount: number;
  readonly deviceIds: readonly string[];
  /** Problems a cost model raised (e.g. "no link between a and b"), reported with the plans. */
  readonly costErrors = new Set<string>();
  private readonly index = new Map<string, number>();
  private readonly stepPrefix: Float64Array[] = [];
  private readonly forwardPrefix: Float64Array[] = [];
  private readonly missingPrefix: Int32Array[] = [];
  private readonly paramPrefix: Float64Array;
  private readonly activationPrefix: Float64Array;
  private readonly residentPrefix: Float64Array;
  /** Inference working set per sample: max over the stage's layers of input + output bytes. */
  private readonly ioMax: Float64Array;

  constructor(
    readonly problem: PlanProblem,
    readonly cost: CostModel,
  ) {
    const L = problem.layers.length;
    this.layerCount = L;
    this.deviceIds = problem.devices.map((d) => d.id);
    const training = problem.mode === 'training';
    problem.devices.forEach((d, di) => {
      this.index.set(d.id, di);
      const step = new Float64Array(L + 1);
      const fwd = new Float64Array(L + 1);
      const missing = new Int32Array(L + 1);
      problem.layers.forEach((layer, l) => {
        const f = layer.forwardUs[d.id];
        const b = training ? layer.backwardUs[d.id] : 0;
        const ok = f !== undefined && b !== undefined && Number.isFinite(f) && Number.isFinite(b);
        fwd[l + 1] = (fwd[l] as number) + (ok ? f : 0);
        step[l + 1] = (step[l] as number) + (ok ? f + b : 0);
        missing[l + 1] = (missing[l] as number) + (ok ? 0 : 1);
      });
      this.stepPrefix.push(step);
      this.forwardPrefix.push(fwd);
      this.missingPrefix.push(missing);
    });
    this.paramPrefix = new Float64Array(L + 1);
    this.activationPrefix = new Float64Array(L + 1);
    this.residentPrefix = new Float64Array(L + 1);
    problem.layers.forEach((layer, l) => {
      this.paramPrefix[l + 1] = (this.paramPrefix[l] as number) + layer.params;
      this.activationPrefix[l + 1] = (this.activationPrefix[l] as number) + layer.activationBytesPerSample;
      this.residentPrefix[l + 1] = (this.residentPrefix[l] as number) + (layer.residentBytesPerSample ?? 0);
    });
    this.ioMax = new Float64Array(L * (L + 1));
    for (let from = 0; from < L; from++) {
      let m = 0;
      for (let to = from + 1; to <= L; to++) {
        const l = to - 1;
        const input = l > 0 ? (problem.layers[l - 1]?.outBytesPerSample ?? 0) : 0;
        m = Math.max(m, input + (problem.layers[l]?.outBytesPerSample ?? 0));
        this.ioMax[from * (L + 1) + to] = m;
      }
    }
  }

  deviceIndex(id: string): number {
    const i = this.index.get(id);
    if (i === undefined) throw new Error(`unknown device ${id}`);
    return i;
  }

  /** Devices a and b take the same time for every layer (so a group of them splits evenly). */
  sameTimes(a: number, b: number): boolean {
    const pa = this.stepPrefix[a] as Float64Array;
    const pb = this.stepPrefix[b] as Float64Array;
    const ma = this.missingPrefix[a] as Int32Array;
    const mb = this.missingPrefix[b] as Int32Array;
    for (let i = 0; i <= this.layerCount; i++) if (pa[i] !== pb[i] || ma[i] !== mb[i]) return false;
    return true;
  }

  /** Per-sample time of layers [from, to) on device d (forward + backward when training); Infinity when a layer has no time there. */
  perSampleUs(d: number, from: number, to: number): number {
    const missing = this.missingPrefix[d] as Int32Array;
    if ((missing[to] as number) - (missing[from] as number) > 0) return Infinity;
    const p = this.stepPrefix[d] as Float64Array;
    return (p[to] as number) - (p[from] as number);
  }

  forwardPerSampleUs(d: number, from: number, to: number): number {
    const missing = this.missingPrefix[d] as Int32Array;
    if ((missing[to] as number) - (missing[from] as number) > 0) return Infinity;
    const p = this.forwardPrefix[d] as Float64Array;
    return (p[to] as number) - (p[from] as number);
  }

  params(from: number, to: number): number {
    return (this.paramPrefix[to] as number) - (this.paramPrefix[from] as number);
  }

  /** Bytes per sample the stage holds for every sample it serves in a step (the KV cache). */
  residentBytesPerSample(from: number, to: number): number {
    return (this.residentPrefix[to] as number) - (this.residentPrefix[from] as number);
  }

  /** Activation bytes per sample the stage holds per microbatch in flight. */
  activationBytesPerSample(from: number, to: number): number {
    if (this.problem.mode === 'inference') return this.ioMax[from * (this.layerCount + 1) + to] as number;
    return (this.activationPrefix[to] as number) - (this.activationPrefix[from] as number);
  }

  /** Split of one microbatch over the stage's devices and the stage's per-microbatch time. */
  stageSplit(devices: readonly number[], from: number, to: number, samples: number): StageSplit {
    if (devices.length === 1) {
      return { timeUs: samples * this.perSampleUs(devices[0] as number, from, to), shares: [samples], slowest: 0 };
    }
    const per = devices.map((d) => this.perSampleUs(d, from, to));
    const shares = splitSamples(samples, per);
    let timeUs = 0;
    let slowest = 0;
    shares.forEach((n, i) => {
      const t = n * (per[i] as number);
      if (n > 0 && t > timeUs) {
        timeUs = t;
        slowest = i;
      }
    });
    if (per.every((c) => !Number.isFinite(c))) timeUs = Infinity;
    return { timeUs, shares, slowest };
  }

  stageTimeUs(devices: readonly number[], from: number, to: number, samples: number): number {
    if (devices.length === 1) return samples * this.perSampleUs(devices[0] as number, from, to);
    return this.stageSplit(devices, from, to, samples).timeUs;
  }

  /** Gradient synchronization of a data-parallel stage, once per step (µs). */
  gradientSyncUs(devices: readonly number[], from: number, to: number): number {
    if (this.problem.mode === 'inference') return 0;
    const offload = this.offloadUs(devices, from, to);
    if (devices.length < 2) return offload;
    const bytes = this.params(from, to) * GRAD_BYTES_PER_PARAM;
    const ids = devices.map((d) => this.deviceIds[d] as string);
    const us = this.guard(() => this.cost.allReduceUs(ids, bytes));
    return (this.problem.zeroStage === 3 ? 1.5 * us : us) + offload;
  }

  /**
   * Optimizer offload, once per step: each replica sends its share of fp16 gradients to the host
   * and gets fp16 weights back (4 bytes per parameter over its host link), and the CPU streams the
   * Adam step over those parameters; the slowest replica counts (µs). 0 without offload.
   */
  offloadUs(devices: readonly number[], from: number, to: number): number {
    const o = this.problem.optimizerOffload;
    if (!o || this.problem.mode === 'inference') return 0;
    const share = this.params(from, to) / Math.max(1, devices.length);
    let worst = 0;
    for (const d of devices) {
      const id = this.deviceIds[d] as string;
      const host = o.hostGBps[id] ?? o.defaultHostGBps;
      const us = (share * (WEIGHT_BYTES_PER_PARAM + GRAD_BYTES_PER_PARAM)) / (host * 1e3);
      worst = Math.max(worst, us);
    }
    // The Adam steps of all replicas are counted on one CPU (conservative when they sit on several hosts).
    return worst + (this.params(from, to) * OFFLOAD_CPU_BYTES_PER_PARAM) / (o.cpuGBps * 1e3);
  }

  /** Activations of one microbatch after layer `lastLayer`, over the slowest link between the stages (µs). */
  cutUs(fromDevices: readonly number[], toDevices: readonly number[], lastLayer: number, samples: number): number {
    const bytes = (this.problem.layers[lastLayer]?.outBytesPerSample ?? 0) * samples;
    let worst = 0;
    for (const a of fromDevices) {
      for (const b of toDevices) {
        const us = this.guard(() => this.cost.linkUs(this.deviceIds[a] as string, this.deviceIds[b] as string, bytes));
        if (!(us <= worst)) worst = us;
      }
    }
    return worst;
  }

  /** A cost model that throws (no route) gives Infinity; the message is kept for the reasons. */
  private guard(f: () => number): number {
    try {
      const v = f();
      return Number.isNaN(v) ? Infinity : v;
    } catch (e) {
      this.costErrors.add(e instanceof Error ? e.message : String(e));
      return Infinity;
    }
  }
}
