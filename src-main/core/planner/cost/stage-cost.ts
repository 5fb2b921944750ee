/**
 * Stage compute and communication times from per-layer, per-sample times. Pure.
 *
 * - A stage on one device: samples × Σ per-sample layer time (forward + backward when training,
 *   forward for inference).
 * - A data-parallel stage: each microbatch is split in whole samples in proportion to device speed
 *   (split-samples.ts); the stage time is the slowest replica's.
 * - Gradient synchronization of a data-parallel stage (training), its exposed part only (the rest
 *   runs on NCCL's stream behind compute). With N replicas, over the devices holding one shard:
 *   - DDP, ZeRO-1 and ZeRO-2, once per step, in buckets behind the last microbatch's backward pass:
 *       exposed = max(AR(G) − B, AR(min(G, bucket)))
 *     AR: DDP's all-reduce; ZeRO-1/2's reduce-scatter of the gradients plus all-gather of the weights.
 *     G = the stage's fp16 gradient bytes, B = one microbatch's backward on the replica with the
 *     fewest samples (floor(samples / N) at its slowest device), bucket = GRADIENT_BUCKET_BYTES:
 *     the last bucket is reduced after the backward ends whatever the overlap. The training stack
 *     (problem.gradientSync, stacks/) sets the bucket, or reduces after the backward: exposed = AR(G).
 *   - ZeRO-3 / FSDP, per microbatch and layer: all-gathers of its weights before its forward and
 *     backward and a reduce-scatter of its gradients after it (gather-scatter.ts), prefetched behind
 *     the neighbours' compute; HSDP inside shard groups, all-reduced across them (sharded-sync.ts).
 *   The optimizer step: offloaded, its host transfers and CPU step; else on the GPUs, the first stage's
 *   (offloadUs).
 * - A cut: the microbatch's activations after the stage's last layer over the slowest link between
 *   the two stages' devices. The link arithmetic is in cut-times.ts.
 * - A tensor-parallel stage of degree t (Megatron-LM): replicas of t devices ([r·t, (r+1)·t)) split
 *   each sample's work on the split layers (PlanLayer.tensor), the others run whole, in lockstep (a
 *   layer takes its slowest member's time). Each replica all-reduces a split layer's output over the
 *   group's slowest link (2 forward, 2 backward a block), whole or as the stack overlaps it with the
 *   GEMMs (tensor-overlap.ts). Data parallelism splits the microbatch over the replicas; gradients
 *   are reduced over the devices holding the same shard.
 * Every search and evaluation goes through these functions, so equal plans cost exactly the same.
 */
import { shardCollectiveUs, type CostModel } from './cost-model.js';
import type { ShardCollective } from './gather-scatter.js';
import {
  deviceMemory,
  deviceMemoryBytes,
  blankMemoryInput,
  GRAD_BYTES_PER_PARAM,
  WEIGHT_BYTES_PER_PARAM,
  type MemoryBreakdown,
  type StageMemoryInput,
} from '../memory/memory.js';
import type { PlanProblem } from '../types.js';
import { largestGatherBytes, largestGatherTable, type LargestGatherTable } from '../memory/gathered-layer.js';
import { CutTimes } from './cut-times.js';
import { ListCache } from './list-cache.js';
import { ReplicaClasses } from './replica-classes.js';
import { EvenStageTimer } from './even-stage-timer.js';
import { splitSamples } from './split-samples.js';
import { devicePrefixes } from './time-classes.js';
import { gradientBucketBytes } from '../stacks/stack-rule.js';
import { offloadStepUs } from './offload-time.js';
import { optimizerStepUs } from './optimizer-step.js';
import { distinctRoutes, gathersQueued, hybridGroups, shardedExposedUs } from './sharded-sync.js';
import { NO_COMM, replicaOverlap, splitLayerCommUs } from './tensor-overlap.js';
import { GRADIENT_BUCKET_BYTES, replicasOf, type StageDeviceLoad, type StageSplit } from './stage-shapes.js';

/** Prefix sums of the problem's layers; every stage cost the planner uses. */
export class CostTables {
  readonly layerCount: number;
  readonly deviceIds: readonly string[];
  /** Problems a cost model raised (e.g. "no link between a and b"), reported with the plans. */
  readonly costErrors = new Set<string>();
  private readonly index = new Map<string, number>();
  private readonly shardRingCache = new ListCache<string[][]>();
  /** Per device: its time class (devices of a class take the same forward and step time on every layer). */
  private readonly timeClass: Int32Array;
  /** Per device list and tp: its replicas in classes that cost the same (replica-classes.ts). */
  private readonly replicaClasses: ReplicaClasses;
  private readonly stepPrefix: readonly Float64Array[];
  private readonly forwardPrefix: readonly Float64Array[];
  private readonly missingPrefix: readonly Int32Array[];
  private readonly paramPrefix: Float64Array;
  private readonly activationPrefix: Float64Array;
  private readonly residentPrefix: Float64Array;
  /** The same sums over the layers that split under tensor parallelism. */
  private readonly splitParamPrefix: Float64Array;
  private readonly splitActivationPrefix: Float64Array;
  private readonly splitResidentPrefix: Float64Array;
  private readonly frozenPrefix: Float64Array;
  /** Per layer: the peak while recomputed (full recomputation with fullRecompute), per sample; null when none has one. */
  private readonly recomputePeak: Float64Array | null;
  private readonly splitFrozenPrefix: Float64Array;
  /** Per tensor-parallel replica (its device indices): prefix sums of per-sample step and forward compute, and missing layers. */
  private readonly replicaPrefix = new Map<string, { step: Float64Array; fwd: Float64Array; missing: Int32Array }>();
  /** Per replica and samples: prefix sums of its all-reduces (step, forward). */
  private readonly commPrefix = new Map<string, { step: Float64Array; fwd: Float64Array }>();
  /** Inference working set per sample: max over the stage's layers of input + output bytes. */
  private readonly ioMax: Float64Array;
  /** Training: ZeRO-3's gathered bytes of the largest layer of each range (largestGatherTable). */
  private readonly gatherMax: LargestGatherTable | null;
  private readonly cuts: CutTimes;
  /** All-reduces of a replica without tensor parallelism, none: evenStageTimer's n·(p[to] − p[from]) + 0 − 0 is perSampleUs's exactly. */
  private noComm: Float64Array | null = null;
  private readonly scratchInput = blankMemoryInput();

  constructor(
    readonly problem: PlanProblem,
    readonly cost: CostModel,
  ) {
    const L = problem.layers.length;
    this.layerCount = L;
    this.deviceIds = problem.devices.map((d) => d.id);
    this.cuts = new CutTimes(problem, cost, this.deviceIds, (f) => this.guard(f));
    problem.devices.forEach((d, di) => this.index.set(d.id, di));
    const prefixes = devicePrefixes(problem.layers, problem.devices, problem.mode === 'training', problem.timesOf);
    this.stepPrefix = prefixes.step;
    this.forwardPrefix = prefixes.forward;
    this.missingPrefix = prefixes.missing;
    this.timeClass = prefixes.timeClass;
    this.replicaClasses = new ReplicaClasses(problem, cost, this.deviceIds, this.timeClass);
    this.paramPrefix = new Float64Array(L + 1);
    this.activationPrefix = new Float64Array(L + 1);
    this.residentPrefix = new Float64Array(L + 1);
    this.splitParamPrefix = new Float64Array(L + 1);
    this.splitActivationPrefix = new Float64Array(L + 1);
    this.splitResidentPrefix = new Float64Array(L + 1);
    this.frozenPrefix = new Float64Array(L + 1);
    this.recomputePeak = problem.layers.some((l) => l.recomputePeakBytesPerSample)
      ? Float64Array.from(problem.layers, (l) => l.recomputePeakBytesPerSample ?? 0)
      : null;
    this.splitFrozenPrefix = new Float64Array(L + 1);
    problem.layers.forEach((layer, l) => {
      const frozen = layer.frozenBytes ?? 0;
      this.frozenPrefix[l + 1] = (this.frozenPrefix[l] as number) + frozen;
      this.splitFrozenPrefix[l + 1] = (this.splitFrozenPrefix[l] as number) + (layer.tensor ? frozen : 0);
      const split = layer.tensor ? 1 : 0;
      this.paramPrefix[l + 1] = (this.paramPrefix[l] as number) + layer.params;
      this.activationPrefix[l + 1] = (this.activationPrefix[l] as number) + layer.activationBytesPerSample;
      this.residentPrefix[l + 1] = (this.residentPrefix[l] as number) + (layer.residentBytesPerSample ?? 0);
      this.splitParamPrefix[l + 1] = (this.splitParamPrefix[l] as number) + split * layer.params;
      this.splitActivationPrefix[l + 1] =
        (this.splitActivationPrefix[l] as number) + split * layer.activationBytesPerSample;
      this.splitResidentPrefix[l + 1] =
        (this.splitResidentPrefix[l] as number) + split * (layer.residentBytesPerSample ?? 0);
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
    this.gatherMax = problem.mode === 'training' ? largestGatherTable(problem.layers) : null;
  }

  deviceIndex(id: string): number {
    const i = this.index.get(id);
    if (i === undefined) throw new Error(`unknown device ${id}`);
    return i;
  }

  /** Devices a and b take the same time for every layer (so a group of them splits evenly). */
  sameTimes(a: number, b: number): boolean {
    if (this.timeClass[a] === this.timeClass[b]) return true;
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

  /** Parameters one member of a tensor-parallel group of degree tp holds: the split layers' 1/tp, the others whole. */
  shardParams(from: number, to: number, tp = 1): number {
    const all = this.params(from, to);
    if (tp === 1) return all;
    const split = (this.splitParamPrefix[to] as number) - (this.splitParamPrefix[from] as number);
    return all - split + split / tp;
  }

  /** Frozen weight bytes (fine-tuning) one member of a tensor-parallel group of degree tp holds. */
  shardFrozenBytes(from: number, to: number, tp = 1): number {
    const all = (this.frozenPrefix[to] as number) - (this.frozenPrefix[from] as number);
    if (tp === 1) return all;
    const split = (this.splitFrozenPrefix[to] as number) - (this.splitFrozenPrefix[from] as number);
    return all - split + split / tp;
  }

  /** The largest recompute peak of layers [from, to) per sample (a split layer's 1/tp). */
  private recomputePeakBytes(from: number, to: number, tp: number): number {
    const peaks = this.recomputePeak;
    if (!peaks) return 0;
    let m = 0;
    for (let l = from; l < to; l++) m = Math.max(m, (peaks[l] as number) / (this.problem.layers[l]?.tensor ? tp : 1));
    return m;
  }

  /** What one device of a stage needs in memory (every search and the pricing ask here). */
  deviceNeed(load: StageDeviceLoad): MemoryBreakdown {
    return deviceMemory(this.memoryInput(load), this.problem);
  }

  /** deviceNeed(load).totalBytes without its objects: the fit tests ask for every range and count in flight. */
  deviceNeedBytes(load: StageDeviceLoad): number {
    return deviceMemoryBytes(this.memoryInput(load), this.problem);
  }

  /** The memory input of one device of a stage, in a scratch object rewritten by the next call. */
  private memoryInput(load: StageDeviceLoad): Required<StageMemoryInput> {
    const { from, to, tp, samples } = load;
    const into = this.scratchInput;
    into.params = this.shardParams(from, to, tp);
    // Hybrid sharding (HSDP) shards ZeRO-3's state over a shard group only.
    into.replicas =
      this.problem.zeroStage === 3 ? Math.min(load.replicas, this.problem.shardGroup ?? Infinity) : load.replicas;
    into.activationBytesPerSample =
      this.problem.mode === 'inference'
        ? this.activationBytesPerSample(from, to)
        : this.shardBytes(this.splitActivationPrefix, this.activationBytesPerSample(from, to), from, to, tp);
    into.samples = samples;
    into.inFlight = load.inFlight;
    const resident = this.shardBytes(this.splitResidentPrefix, this.residentBytesPerSample(from, to), from, to, tp);
    into.residentBytes = resident * samples * load.microbatches;
    into.frozenBytes = this.shardFrozenBytes(from, to, tp);
    into.recomputeBytes = this.recomputePeakBytes(from, to, tp) * samples;
    into.largestLayerGatherBytes = this.gatherMax ? largestGatherBytes(this.gatherMax, from, to, tp) : 0;
    return into;
  }

  /** A member's share of `whole` bytes of layers [from, to) when its split layers' part (`prefix`) divides over tp. */
  private shardBytes(prefix: Float64Array, whole: number, from: number, to: number, tp: number): number {
    return tp === 1 ? whole : whole - ((prefix[to] as number) - (prefix[from] as number)) * (1 - 1 / tp);
  }

  /**
   * Split of one microbatch over the stage's devices and the stage's per-microbatch time. With a
   * tensor-parallel degree tp, the samples are split over the replicas; every member of a replica
   * gets its replica's share, and `slowest` is the first member of the slowest replica.
   */
  stageSplit(devices: readonly number[], from: number, to: number, samples: number, tp = 1): StageSplit {
    if (tp > 1) return this.tensorSplit(devices, from, to, samples, tp);
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

  stageTimeUs(devices: readonly number[], from: number, to: number, samples: number, tp = 1): number {
    if (devices.length === 1) return samples * this.perSampleUs(devices[0] as number, from, to);
    return this.stageSplit(devices, from, to, samples, tp).timeUs;
  }

  /**
   * Groups a and b (each of alike replicas, or one replica) at degree tp take the same time for
   * every range with `samples` samples a microbatch (evenStageTimer): their members' layer times
   * match one for one, and so do their first replicas' all-reduces.
   */
  sameEvenStages(a: readonly number[], b: readonly number[], tp: number, samples: number): boolean {
    if (a.length !== b.length || !a.every((d, j) => this.sameTimes(d, b[j] as number))) return false;
    if (tp === 1) return true;
    const n = Math.ceil(samples / (a.length / tp));
    const ca = this.replicaComm(a.slice(0, tp), n).step;
    const cb = this.replicaComm(b.slice(0, tp), n).step;
    return ca.every((v, i) => v === cb[i]);
  }

  /**
   * Per-microbatch time of layers [from, to) on a group whose replicas are alike, or one replica:
   * the replica dealt the most samples sets it, and it adds up over layers. The same arithmetic as
   * stageSplit, without its allocations (the searches ask for every range).
   */
  evenStageTimer(devices: readonly number[], samples: number, tp = 1): EvenStageTimer {
    const n = Math.ceil(samples / (devices.length / tp));
    if (tp === 1) {
      const d = devices[0] as number;
      this.noComm ??= new Float64Array(this.layerCount + 1);
      return new EvenStageTimer(
        n,
        this.stepPrefix[d] as Float64Array,
        this.missingPrefix[d] as Int32Array,
        this.noComm,
      );
    }
    const members = devices.slice(0, tp);
    const p = this.replicaTimes(members, tp);
    return new EvenStageTimer(n, p.step, p.missing, this.replicaComm(members, n).step);
  }

  /** The forward part of the slowest replica's time for one microbatch (the simulator's forward pass). */
  stageForwardUs(devices: readonly number[], from: number, to: number, samples: number, tp = 1): number {
    const split = this.stageSplit(devices, from, to, samples, tp);
    const n = split.shares[split.slowest] ?? 0;
    if (tp === 1) return n * this.forwardPerSampleUs(devices[split.slowest] as number, from, to);
    const members = devices.slice(split.slowest, split.slowest + tp);
    const prefix = this.replicaTimes(members, tp);
    const comm = this.replicaComm(members, n);
    return (
      n * ((prefix.fwd[to] as number) - (prefix.fwd[from] as number)) +
      (comm.fwd[to] as number) -
      (comm.fwd[from] as number)
    );
  }

  private tensorSplit(devices: readonly number[], from: number, to: number, samples: number, tp: number): StageSplit {
    const replicas = replicasOf(devices, tp);
    // Replicas of a class (replica-classes.ts) cost the same: each priced as its class's first.
    const first = this.replicaClasses.of(devices, tp);
    const per: number[] = [];
    replicas.forEach((members, r) => {
      const p = r === first[r] ? this.replicaTimes(members, tp) : null;
      const gone = p && (p.missing[to] as number) - (p.missing[from] as number) > 0;
      per.push(
        p ? (gone ? Infinity : (p.step[to] as number) - (p.step[from] as number)) : (per[first[r] as number] as number),
      );
    });
    const replicaShares = replicas.length === 1 ? [samples] : splitSamples(samples, per);
    let timeUs = 0;
    let slowest = 0;
    replicaShares.forEach((n, r) => {
      if (n <= 0) return;
      const comm = this.replicaComm(replicas[first[r] as number] as number[], n);
      const t = n * (per[r] as number) + (comm.step[to] as number) - (comm.step[from] as number);
      if (!(t <= timeUs)) {
        timeUs = t;
        slowest = r * tp;
      }
    });
    if (per.every((c) => !Number.isFinite(c))) timeUs = Infinity;
    const shares = replicaShares.flatMap((n) => new Array<number>(tp).fill(n));
    return { timeUs, shares, slowest };
  }

  /** Prefix sums of a replica's per-sample compute: each layer at its slowest member, split layers over tp. */
  private replicaTimes(
    members: readonly number[],
    tp: number,
  ): { step: Float64Array; fwd: Float64Array; missing: Int32Array } {
    const key = members.join(',');
    const hit = this.replicaPrefix.get(key);
    if (hit) return hit;
    const L = this.layerCount;
    const step = new Float64Array(L + 1);
    const fwd = new Float64Array(L + 1);
    const missing = new Int32Array(L + 1);
    for (let l = 0; l < L; l++) {
      const div = this.problem.layers[l]?.tensor ? tp : 1;
      let s = 0;
      let f = 0;
      let gone = 0;
      for (const d of members) {
        const ds = this.perSampleUs(d, l, l + 1);
        if (!Number.isFinite(ds)) gone = 1;
        s = Math.max(s, ds / div);
        f = Math.max(f, this.forwardPerSampleUs(d, l, l + 1) / div);
      }
      step[l + 1] = (step[l] as number) + (gone ? 0 : s);
      fwd[l + 1] = (fwd[l] as number) + (gone ? 0 : f);
      missing[l + 1] = (missing[l] as number) + gone;
    }
    const out = { step, fwd, missing };
    this.replicaPrefix.set(key, out);
    return out;
  }

  /** Prefix sums of a replica's all-reduces for `samples` samples (step: forward and backward; fwd: forward only). */
  private replicaComm(members: readonly number[], samples: number): { step: Float64Array; fwd: Float64Array } {
    const key = `${members.join(',')}/${samples}`;
    const hit = this.commPrefix.get(key);
    if (hit) return hit;
    const [L, tp, training] = [this.layerCount, members.length, this.problem.mode === 'training'];
    const ids = members.map((d) => this.deviceIds[d] as string);
    const [step, fwd] = [new Float64Array(L + 1), new Float64Array(L + 1)];
    const overlap = training ? replicaOverlap(this.problem.tensorOverlap, ids) : null;
    const compute = overlap ? this.replicaTimes(members, tp).fwd : null;
    for (let l = 0; l < L; l++) {
      const layer = this.problem.layers[l];
      let c = NO_COMM;
      if (layer?.tensor) {
        const bytes = (layer.tensor.allReduceBytesPerSample ?? layer.outBytesPerSample) * samples;
        const one = this.allReduceUs(ids, bytes);
        const fUs = compute ? samples * ((compute[l + 1] as number) - (compute[l] as number)) : 0;
        c = splitLayerCommUs(layer.tensor, one, fUs, { tp, training, overlap });
      }
      fwd[l + 1] = (fwd[l] as number) + c.forward;
      step[l + 1] = (step[l] as number) + c.forward + c.backward;
    }
    const out = { step, fwd };
    this.commPrefix.set(key, out);
    return out;
  }

  /**
   * Gradient synchronization of a data-parallel stage per step, the part compute does not hide
   * (µs; see the file comment), for `samples` samples a microbatch; the slowest shard counts.
   */
  gradientSyncUs(devices: readonly number[], from: number, to: number, tp: number, samples: number): number {
    if (this.problem.mode === 'inference') return 0;
    const offload = this.offloadUs(devices, from, to, tp);
    const replicas = devices.length / tp;
    if (replicas < 2) return offload;
    const perReplica = Math.floor(samples / replicas);
    const rings = this.shardRings(devices, tp);
    if (this.problem.zeroStage === 3) {
      const microbatches = Math.max(1, Math.round(this.problem.batch / samples));
      let us = 0;
      for (const ring of rings) {
        const { shards, replicas } = hybridGroups(ring, this.problem.shardGroup);
        const across = distinctRoutes(this.cost, replicas);
        for (const ids of distinctRoutes(this.cost, shards))
          us = Math.max(us, this.shardedLayersUs(ids, across, devices, from, to, tp, perReplica));
      }
      return microbatches * us + offload;
    }
    const bytes = this.shardParams(from, to, tp) * GRAD_BYTES_PER_PARAM;
    const sync = this.problem.gradientSync;
    const lastBucket = Math.min(bytes, sync ? gradientBucketBytes(sync, replicas) : GRADIENT_BUCKET_BYTES);
    // A stack that reduces after the backward pass hides none of it.
    const backwardUs = sync?.overlapped === false ? 0 : perReplica * this.leastPerSampleUs(devices, from, to, tp, 1);
    let us = 0;
    for (const ids of rings) {
      const all = this.reductionUs(ids, bytes);
      const last = sync?.overlapped === false ? all : this.reductionUs(ids, lastBucket);
      us = Math.max(us, Math.max(all - backwardUs, last));
    }
    return us + offload;
  }

  /** DDP all-reduces gradients; ZeRO-1/2 reduce-scatter them and all-gather the updated weights (as many bytes). */
  private reductionUs(ids: readonly string[], bytes: number): number {
    if (this.problem.zeroStage === 0) return this.allReduceUs(ids, bytes);
    return this.allReduceUs(ids, bytes, 'reduce_scatter') + this.allReduceUs(ids, bytes, 'all_gather');
  }

  /**
   * One microbatch's exposed ZeRO-3 collectives over one shard group (µs; sharded-sync.ts's formula),
   * each reduce-scatter followed by the all-reduce of its shard across the groups (`across`, HSDP).
   */
  private shardedLayersUs(
    ids: readonly string[],
    across: readonly string[][],
    devices: readonly number[],
    from: number,
    to: number,
    tp: number,
    perReplica: number,
  ): number {
    const gather: number[] = [];
    const scatter: number[] = [];
    const forward: number[] = [];
    const backward: number[] = [];
    for (let l = from; l < to; l++) {
      // Fine-tuning gathers the frozen weights too (their stored bytes); only trainable ones have gradients.
      const params = this.shardParams(l, l + 1, tp);
      const weights = params * WEIGHT_BYTES_PER_PARAM + this.shardFrozenBytes(l, l + 1, tp);
      gather.push(this.allReduceUs(ids, weights, 'all_gather'));
      const grads = params * GRAD_BYTES_PER_PARAM;
      let replicated = 0;
      for (const r of across) replicated = Math.max(replicated, this.allReduceUs(r, grads / ids.length));
      scatter.push(this.allReduceUs(ids, grads, 'reduce_scatter') + replicated);
      forward.push(perReplica * this.leastPerSampleUs(devices, l, l + 1, tp, 0));
      backward.push(perReplica * this.leastPerSampleUs(devices, l, l + 1, tp, 1));
    }
    return shardedExposedUs(gather, scatter, forward, backward, gathersQueued(this.problem, ids));
  }

  /**
   * Per-sample forward (part 0) or backward (part 1) time of layers [from, to) on the stage's fastest replica (its
   * slowest member with tensor parallelism): the least compute its collectives can hide behind.
   */
  private leastPerSampleUs(devices: readonly number[], from: number, to: number, tp: number, part: 0 | 1): number {
    let forward = Infinity;
    let backward = Infinity;
    // Replicas of the same time classes give the same times: each is counted once.
    for (const members of this.replicaClasses.distinct(devices, tp)) {
      let f: number;
      let step: number;
      if (tp === 1) {
        const d = members[0] as number;
        f = this.forwardPerSampleUs(d, from, to);
        step = this.perSampleUs(d, from, to);
      } else {
        const p = this.replicaTimes(members, tp);
        const gone = (p.missing[to] as number) - (p.missing[from] as number) > 0;
        f = gone ? Infinity : (p.fwd[to] as number) - (p.fwd[from] as number);
        step = gone ? Infinity : (p.step[to] as number) - (p.step[from] as number);
      }
      if (!Number.isFinite(step)) continue;
      forward = Math.min(forward, f);
      backward = Math.min(backward, step - f);
    }
    return !Number.isFinite(forward) ? 0 : part === 0 ? forward : backward;
  }

  /**
   * The devices holding each of the tp shards (ids), one ring of each all-reduce route where the
   * cost model tells them (rings of like nodes cost the same: their slowest is any of them),
   * cached per list (ListCache).
   */
  private shardRings(devices: readonly number[], tp: number): string[][] {
    const cached = this.shardRingCache.find(devices, tp);
    if (cached) return cached;
    const rings = distinctRoutes(
      this.cost,
      Array.from({ length: tp }, (_, j) =>
        devices.filter((_, i) => i % tp === j).map((d) => this.deviceIds[d] as string),
      ),
    );
    return this.shardRingCache.add(devices, tp, rings);
  }

  /** The optimizer step: offloaded (offload-time.ts), else on the GPUs (optimizer-step.ts) over each one's share (µs). */
  offloadUs(devices: readonly number[], from: number, to: number, tp = 1): number {
    const { optimizerOffload: o, optimizerStep: gpu, zeroStage, mode } = this.problem;
    // The first stage ends its last backward last (GPipe, 1F1B, interleaved): the later stages' steps run in the drain.
    if (mode === 'inference' || (!o && (!gpu || from > 0))) return 0;
    const ids = devices.map((d) => this.deviceIds[d] as string);
    const whole = this.shardParams(from, to, tp);
    const share = whole / Math.max(1, devices.length / tp);
    if (!o) return optimizerStepUs(gpu, ids, { whole, share, zeroStage, split: tp > 1 || to < this.layerCount });
    return offloadStepUs(o, ids, share, this.params(from, to));
  }

  /** Activations of one microbatch after layer `lastLayer`, over the slowest link between the stages (µs). */
  cutUs(fromDevices: readonly number[], toDevices: readonly number[], lastLayer: number, samples: number): number {
    return this.cuts.cutUs(fromDevices, toDevices, lastLayer, samples);
  }

  /**
   * Every cut's time between two device lists, for `samples` a microbatch; the same array for
   * lists over the same links (a cluster's many groups share a few), valid until the next call
   * with other samples.
   */
  cutRow(fromDevices: readonly number[], toDevices: readonly number[], samples: number): Float64Array {
    return this.cuts.cutRow(fromDevices, toDevices, samples);
  }

  /** A cost model that throws (no route) gives Infinity; the message is kept for the reasons. */
  private guard(f: () => number): number {
    try {
      const v = f();
      return Number.isNaN(v) ? Infinity : v;
    } catch (e) {
      return this.failed(e);
    }
  }

  /** guard(() => cost.allReduceUs(ids, bytes)) without a closure (or its `op`: shardCollectiveUs). */
  private allReduceUs(ids: readonly string[], bytes: number, op?: ShardCollective): number {
    try {
      const v = op ? shardCollectiveUs(this.cost, op, ids, bytes) : this.cost.allReduceUs(ids, bytes);
      return Number.isNaN(v) ? Infinity : v;
    } catch (e) {
      return this.failed(e);
    }
  }

  private failed(e: unknown): number {
    this.costErrors.add(e instanceof Error ? e.message : String(e));
    return Infinity;
  }
}
