/**
 * One engine replica serving requests, step by step (a discrete-event simulation in the spirit of
 * Vidur): requests arrive, the engine's scheduler admits them under its caps (max sequences, KV
 * cache, tokens per step), each step decodes one token for every running sequence and prefills
 * prompt chunks as the engine's batching allows, and the step's time comes from stepCost. Pure and
 * deterministic: the same requests give the same figures.
 *
 * Batching rules (EngineBatching):
 * - continuous with chunked prefill: every step decodes all running sequences, then fills the
 *   token budget with prompt chunks (vLLM V1, SGLang, TensorRT-LLM in-flight batching, llama.cpp's
 *   server slots);
 * - continuous without chunked prefill: a step prefills whole waiting prompts (up to the budget) and
 *   decodes nothing; otherwise it decodes (vLLM before chunked prefill was the default);
 * - static: a batch is admitted when the engine is idle, prefilled at once, and decoded until its
 *   last sequence ends (transformers' generate).
 * KV cache: 'on-demand' engines hold a sequence's tokens as they come and preempt the newest
 * sequence (to recompute later) when the cache is full; 'full' engines reserve prompt + output at
 * admission.
 */
import type { EngineDeployment, StepLoad } from './engine-step.js';
import { stepCost } from './engine-step.js';

export interface SimRequest {
  /** Arrival time (µs). */
  at: number;
  prompt: number;
  output: number;
}

export interface SimOptions {
  /** Cached tokens the replica holds (all sequences). */
  kvTokens: number;
  /** Most sequences at once and tokens per step (the engine's caps unless the launch changes them). */
  maxNumSeqs: number;
  maxBatchedTokens: number;
  /** Closed loop: the next request starts when one ends (its arrival is then), keeping this many in flight. */
  closedLoop?: number;
  /** Give up after this many steps (a guard against runaway inputs). */
  maxSteps?: number;
}

export interface RequestResult {
  arrival: number;
  firstToken: number;
  end: number;
  prompt: number;
  output: number;
}

export interface SimResult {
  requests: RequestResult[];
  /** From the first arrival to the last token (µs). */
  makespanUs: number;
  steps: number;
  preemptions: number;
  /** Largest number of sequences running in one step. */
  peakRunning: number;
  /** Time-average of the requests in the system (waiting or running) over the makespan, as the steps saw them. */
  meanInSystem: number;
  /** Time-average of the KV cache's tokens in use, and the most in one step. */
  meanKvTokens: number;
  peakKvTokens: number;
  /** Requests never served (did not fit the KV cache even alone). */
  refused: number;
  /** The step limit stopped the simulation. */
  cut: boolean;
}

interface Running {
  req: SimRequest;
  index: number;
  prefilled: number;
  generated: number;
  firstToken: number;
}

const DEFAULT_MAX_STEPS = 2_000_000;

class ReplicaSim {
  private readonly waiting: { req: SimRequest; index: number }[] = [];
  private readonly running: Running[] = [];
  private readonly results: (RequestResult | null)[];
  private now = 0;
  private steps = 0;
  private preemptions = 0;
  private peakRunning = 0;
  private refused = 0;
  private next = 0;
  private inSystemArea = 0;
  private kvArea = 0;
  private peakKv = 0;

  constructor(
    private readonly dep: EngineDeployment,
    private readonly requests: readonly SimRequest[],
    private readonly opts: SimOptions,
  ) {
    this.results = requests.map(() => null);
  }

  private heldTokens(r: Running): number {
    return this.dep.engine.batching.admission === 'full' ? r.req.prompt + r.req.output : r.prefilled + r.generated;
  }

  private usedTokens(): number {
    return this.running.reduce((a, r) => a + this.heldTokens(r), 0);
  }

  private arrive(): void {
    while (this.next < this.requests.length && (this.requests[this.next] as SimRequest).at <= this.now) {
      const req = this.requests[this.next] as SimRequest;
      this.waiting.push({ req, index: this.next });
      this.next++;
    }
  }

  private admit(): void {
    const b = this.dep.engine.batching;
    if (b.kind === 'static' && this.running.length > 0) return;
    let used = this.usedTokens();
    while (this.waiting.length > 0 && this.running.length < this.opts.maxNumSeqs) {
      const w = this.waiting[0] as { req: SimRequest; index: number };
      const need = b.admission === 'full' ? w.req.prompt + w.req.output : w.req.prompt + 1;
      if (need > this.opts.kvTokens) {
        this.waiting.shift();
        this.refused++;
        continue;
      }
      if (used + need > this.opts.kvTokens) break;
      this.waiting.shift();
      this.running.push({ req: w.req, index: w.index, prefilled: 0, generated: 0, firstToken: -1 });
      used += b.admission === 'full' ? need : 0;
    }
  }

  /** The step's work: which sequences decode and which prompt chunks run. */
  private plan(): { load: StepLoad; chunks: Map<Running, number>; decoding: Running[] } {
    const b = this.dep.engine.batching;
    const budget = this.opts.maxBatchedTokens;
    const chunks = new Map<Running, number>();
    const pending = this.running.filter((r) => r.prefilled < r.req.prompt);
    let decoding = this.running.filter((r) => r.prefilled >= r.req.prompt);
    if (b.kind === 'static') {
      if (pending.length > 0) decoding = [];
      for (const r of pending) chunks.set(r, r.req.prompt - r.prefilled);
    } else if (!b.chunkedPrefill && pending.length > 0) {
      decoding = [];
      let left = budget;
      for (const r of pending) {
        const rest = r.req.prompt - r.prefilled;
        if (rest > left && chunks.size > 0) break;
        chunks.set(r, rest);
        left -= rest;
      }
    } else {
      let left = budget - decoding.length;
      for (const r of pending) {
        if (left <= 0) break;
        const take = Math.min(left, r.req.prompt - r.prefilled);
        chunks.set(r, take);
        left -= take;
      }
    }
    const load: StepLoad = {
      decodeSeqs: decoding.length,
      decodeContext: decoding.reduce((a, r) => a + r.req.prompt + r.generated, 0),
      prefill: [...chunks].map(([r, tokens]) => ({ tokens, past: r.prefilled })),
    };
    return { load, chunks, decoding };
  }

  private finish(r: Running): void {
    this.results[r.index] = {
      arrival: r.req.at,
      firstToken: r.firstToken,
      end: this.now,
      prompt: r.req.prompt,
      output: r.req.output,
    };
    if (this.opts.closedLoop !== undefined && this.next < this.requests.length) {
      // The user whose request ended sends the next one now.
      const req = { ...(this.requests[this.next] as SimRequest), at: this.now };
      this.waiting.push({ req, index: this.next });
      this.next++;
    }
  }

  /** On-demand caches: the newest sequences give their cache back (recomputed later) while the cache overflows. */
  private preempt(): void {
    if (this.dep.engine.batching.admission === 'full') return;
    while (this.usedTokens() > this.opts.kvTokens && this.running.length > 1) {
      const victim = this.running.pop() as Running;
      this.waiting.unshift({ req: victim.req, index: victim.index });
      this.preemptions++;
    }
  }

  /** Time (request x µs) that requests arriving before `end` spend in the system before it. */
  private arrivedDuring(end: number): number {
    let area = 0;
    for (let i = this.next; i < this.requests.length; i++) {
      const at = (this.requests[i] as SimRequest).at;
      if (at >= end) break;
      area += end - Math.max(at, this.now);
    }
    return area;
  }

  /** Whether a waiting request could be admitted before a running one ends. */
  private admissionBlocked(): boolean {
    if (this.waiting.length === 0) return true;
    const b = this.dep.engine.batching;
    if (b.kind === 'static' || this.running.length >= this.opts.maxNumSeqs) return true;
    const w = this.waiting[0] as { req: SimRequest };
    const need = b.admission === 'full' ? w.req.prompt + w.req.output : w.req.prompt + 1;
    return this.usedTokens() + need > this.opts.kvTokens;
  }

  /**
   * Decode steps that can run as one stretch: nothing is prefilled, nobody can join, no request
   * arrives, nobody ends before its last step, and the cache does not overflow. A step's cost is
   * linear in the context, so the stretch costs its steps at their middle context.
   */
  private stretch(load: StepLoad, decoding: readonly Running[], stepUs: number): number {
    if (load.prefill.length > 0 || decoding.length === 0 || !this.admissionBlocked()) return 1;
    let k = Infinity;
    for (const r of decoding) {
      const left = r.req.output - r.generated;
      if (left > 0) k = Math.min(k, left);
    }
    if (!Number.isFinite(k)) return 1;
    if (this.dep.engine.batching.admission === 'on-demand') {
      k = Math.min(k, Math.floor((this.opts.kvTokens - this.usedTokens()) / decoding.length));
    }
    if (this.opts.closedLoop === undefined && this.next < this.requests.length) {
      const gap = (this.requests[this.next] as SimRequest).at - this.now;
      k = Math.min(k, Math.floor(gap / Math.max(stepUs, 1e-9)));
    }
    k = Math.min(k, (this.opts.maxSteps ?? DEFAULT_MAX_STEPS) - this.steps);
    return Math.max(1, Math.floor(k));
  }

  private step(): void {
    const { load, chunks, decoding } = this.plan();
    const first = stepCost(this.dep, load).us;
    const k = this.stretch(load, decoding, first);
    const us =
      k === 1
        ? first
        : k * stepCost(this.dep, { ...load, decodeContext: load.decodeContext + (load.decodeSeqs * (k - 1)) / 2 }).us;
    // Requests that arrived during the step are counted from their arrival.
    const arrived = this.opts.closedLoop === undefined ? this.arrivedDuring(this.now + us) : 0;
    const kv = this.usedTokens();
    this.inSystemArea += (this.running.length + this.waiting.length) * us + arrived;
    this.kvArea += kv * us;
    this.peakKv = Math.max(this.peakKv, kv);
    this.now += us;
    this.steps += k;
    this.peakRunning = Math.max(this.peakRunning, this.running.length);
    for (const [r, tokens] of chunks) {
      r.prefilled += tokens;
      if (r.prefilled >= r.req.prompt) {
        r.generated = 1;
        r.firstToken = this.now;
      }
    }
    for (const r of decoding) r.generated += k;
    const done = this.running.filter((r) => r.prefilled >= r.req.prompt && r.generated >= r.req.output);
    if (this.dep.engine.batching.kind !== 'static' || done.length === this.running.length) {
      for (const r of done) {
        this.running.splice(this.running.indexOf(r), 1);
        this.finish(r);
      }
    }
    this.preempt();
  }

  run(): SimResult {
    const first = this.requests[0]?.at ?? 0;
    const initial = this.opts.closedLoop ?? this.requests.length;
    const maxSteps = this.opts.maxSteps ?? DEFAULT_MAX_STEPS;
    if (this.opts.closedLoop !== undefined) {
      for (; this.next < Math.min(initial, this.requests.length); this.next++) {
        this.waiting.push({ req: { ...(this.requests[this.next] as SimRequest), at: first }, index: this.next });
      }
    }
    this.now = first;
    let cut = false;
    while (this.next < this.requests.length || this.waiting.length > 0 || this.running.length > 0) {
      if (this.opts.closedLoop === undefined) this.arrive();
      this.admit();
      if (this.running.length === 0) {
        if (this.waiting.length > 0) continue;
        if (this.next >= this.requests.length) break;
        this.now = Math.max(this.now, (this.requests[this.next] as SimRequest).at);
        continue;
      }
      if (this.steps >= maxSteps) {
        cut = true;
        break;
      }
      this.step();
    }
    const requests = this.results.filter((r): r is RequestResult => r !== null);
    const span = this.now - first;
    return {
      requests,
      makespanUs: this.now - first,
      steps: this.steps,
      preemptions: this.preemptions,
      peakRunning: this.peakRunning,
      meanInSystem: span > 0 ? this.inSystemArea / span : 0,
      meanKvTokens: span > 0 ? this.kvArea / span : 0,
      peakKvTokens: this.peakKv,
      refused: this.refused,
      cut,
    };
  }
}

export function simulateReplica(dep: EngineDeployment, requests: readonly SimRequest[], opts: SimOptions): SimResult {
  return new ReplicaSim(dep, requests, opts).run();
}
