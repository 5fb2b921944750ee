/**
 * One engine replica serving requests, step by step (a discrete-event simulation in the spirit of
 * Vidur): requests arrive, the engine's scheduler admits them under its caps (max sequences, KV
 * cache, tokens per step), each step decodes one token for every running sequence and prefills
 * prompt chunks as the engine's batching allows, and the step's time comes from stepCost. Pure and
 * deterministic: the same requests give the same figures.
 *
 * Batching rules (EngineBatching), two choices:
 * - whether a step with prompt work also decodes every running sequence (vLLM V1, TensorRT-LLM's
 *   in-flight batching, llama.cpp's server slots) or runs alone while they wait (vLLM V0, SGLang);
 * - whether prompts are cut into chunks that fill what the step's token budget leaves (chunked
 *   prefill) or run whole, as many as the budget holds (at least one);
 * - static: a batch is admitted when the engine is idle, prefilled at once, and decoded until its
 *   last sequence ends (transformers' generate).
 * KV cache: 'on-demand' engines reserve a prompt's tokens at admission, hold each answer's tokens as
 * they come, and preempt the newest sequence when the cache overflows: it gives its cache back, goes
 * to the front of the queue, and on readmission recomputes its prompt and the tokens it had already
 * sent (one prefill), then goes on (vLLM's and SGLang's recompute); 'full' engines reserve prompt +
 * output at admission. An engine that reserves output (SGLang, `outputReserve`) admits a request only
 * while the free cache, less the running sequences' expected remaining output, holds its prompt and
 * output; once one does not fit, the queue waits until a running sequence ends or is preempted.
 * Multi-step scheduling (vLLM v0.5.3-v0.6.x --num-scheduler-steps N, `schedulerSteps`): a decode
 * step is N decode steps run on one scheduling decision: nobody is admitted and nobody leaves
 * (a sequence that reaches its end mid-way leaves at the last step), and the tokens reach the client
 * at the end, N at a time (one inter-token gap per chunk, as benchmark_serving measures). A step
 * with prompt work stays one step (vLLM v0.6.0 gives a prefill no lookahead slots), so a request
 * arriving during the N steps waits for their end before its prefill.
 * Scheduling one step ahead (SGLang's overlap scheduler, `scheduleAhead`): the next step is formed
 * when this one starts, so a request arriving during a step (a closed loop's next request too, sent
 * as an answer ends) joins the step after the next one, unless nothing else would run (then it
 * starts when the step ends). A server that tokenizes prompts (`host.tokenizeUsPerToken`, per byte:
 * request-path.ts) hands each request to the scheduler when its tokenization ends, one after another
 * (times count from the arrival). At a vanishing rate TTFT is tokenization + prefill. The run keeps
 * each request's times, every inter-token gap and the KV cache and queue step by step (timeline.ts).
 */
import { floatColumn } from '../serving/columns.js';
import { Timeline, type Series } from '../serving/timeline.js';
import type { OutputReserve } from './engine-rules.js';
import type { EngineDeployment, StepLoad } from './engine-step.js';
import { stepCost } from './engine-step.js';
import { admissionTokens, decayedRatio, ratioAfterRetract, reservedOutput } from './output-reserve.js';
import { tokenizedAt, tokenizeUsPerToken } from './request-path.js';

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
  /** Decode steps per scheduling decision (vLLM --num-scheduler-steps); default 1. */
  schedulerSteps?: number;
  /** Bytes of text a prompt token stands for (default English, request-path.ts): the tokenizer's cost is per byte. */
  promptBytesPerToken?: number;
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

/** Gaps between a request's successive tokens (µs), each with how many tokens came after it. */
export interface TokenGaps {
  gapsUs: Float64Array;
  counts: Float64Array;
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
  /** Time-average of the KV cache's tokens held (and reserved for prompts being prefilled), and the most in one step. */
  meanKvTokens: number;
  peakKvTokens: number;
  /** The KV cache's tokens held and the requests queued (arrived, not running), over the run. */
  kvSeries: Series;
  queueSeries: Series;
  /** Inter-token gaps of every request after its first token. */
  itl: TokenGaps;
  /** Requests never served (did not fit the KV cache even alone). */
  refused: number;
  /** The step limit stopped the simulation. */
  cut: boolean;
}

/** A request in the replica: queued, running, or preempted and queued again. */
interface Seq {
  index: number;
  /** Order of admission (the newest running sequence is preempted first). */
  admitted: number;
  arrival: number;
  /** When the scheduler can see it: its arrival, or when the server has tokenized it. */
  ready: number;
  prompt: number;
  output: number;
  /** Tokens to prefill: the prompt, or after a preemption the prompt and the tokens already sent. */
  target: number;
  prefilled: number;
  generated: number;
  /** Tokens in the cache. */
  kv: number;
  firstToken: number;
  /** When its last token came (µs). */
  last: number;
}

const DEFAULT_MAX_STEPS = 2_000_000;
const NO_PREFILL: StepLoad['prefill'] = [];

/**
 * The replica's state. Running sequences are in two lists, those still prefilling (in admission
 * order) and those decoding, and the decoding ones' context is kept as a sum, so a decode step
 * touches each decoding sequence once (its token, its gap, whether it ended) and nothing else.
 */
class ReplicaSim {
  /** Arrived requests not yet running, oldest first from `head`; preempted ones go to `resumed`, served first. */
  private waiting: Seq[] = [];
  private head = 0;
  private readonly resumed: Seq[] = [];
  private pending: Seq[] = [];
  private decoding: Seq[] = [];
  /** Cached tokens of the decoding sequences (their prompts and answers so far). */
  private decodeContext = 0;
  /** A lower bound on the tokens any decoding sequence has left, and how many still grow. */
  private minLeft = Infinity;
  private readonly results: (RequestResult | null)[];
  private readonly timeline = new Timeline();
  private readonly gaps = floatColumn();
  private readonly gapCounts = floatColumn();
  private readonly full: boolean;
  private readonly isStatic: boolean;
  /** SGLang: the running sequences' output is reserved at admission (ratio now), and a request that did not fit holds the queue until one ends. */
  private readonly reserve: OutputReserve | undefined;
  private ratio = 0;
  private blocked = false;
  /** Tokens the running sequences hold or have reserved. */
  private used = 0;
  private admissions = 0;
  private now = 0;
  private steps = 0;
  /** When the last step started and ended (µs): a scheduler one step ahead formed the next step at its start. */
  private stepStart = -Infinity;
  private stepEnd = -Infinity;
  private preemptions = 0;
  private peakRunning = 0;
  private refused = 0;
  private next = 0;
  private readonly tokenizeUs: number; // µs a prompt token takes to tokenize (the load's bytes per token)
  private tokenizerFree = -Infinity; // when the tokenizing process is next free (µs)
  private inSystemArea = 0;
  private kvArea = 0;
  private peakKv = 0;
  /** This step's prompt chunks (reused). */
  private readonly chunked: Seq[] = [];
  private readonly chunks: number[] = [];

  constructor(
    private readonly dep: EngineDeployment,
    private readonly requests: readonly SimRequest[],
    private readonly opts: SimOptions,
  ) {
    this.results = requests.map(() => null);
    this.full = dep.engine.batching.admission === 'full';
    this.isStatic = dep.engine.batching.kind === 'static';
    this.reserve = this.full ? undefined : dep.engine.batching.outputReserve;
    this.ratio = this.reserve?.initRatio ?? 0;
    this.tokenizeUs = tokenizeUsPerToken(dep.engine.host.tokenizeUsPerToken ?? 0, opts.promptBytesPerToken);
  }

  private running(): number {
    return this.pending.length + this.decoding.length;
  }

  private queued(): number {
    return this.waiting.length - this.head + this.resumed.length;
  }

  /** Tokens a running sequence counts against the cache: all it may hold ('full'), or its prompt reserved and what it holds. */
  private held(r: Seq): number {
    return this.full ? r.prompt + r.output : Math.max(r.kv, r.target + 1);
  }

  /** When request `index`, sent at `at` (its arrival), reaches the scheduler (the next one to be tokenized). */
  private readyOf(index: number, at = (this.requests[index] as SimRequest).at): number {
    return tokenizedAt(this.tokenizerFree, at, (this.requests[index] as SimRequest).prompt, this.tokenizeUs);
  }

  private enqueue(index: number, at: number): void {
    const { prompt, output } = this.requests[index] as SimRequest;
    this.tokenizerFree = this.readyOf(index, at);
    this.waiting.push({
      index,
      admitted: -1,
      arrival: at,
      ready: this.tokenizerFree,
      prompt,
      output,
      target: prompt,
      prefilled: 0,
      generated: 0,
      kv: 0,
      firstToken: -1,
      last: at,
    });
  }

  /** Requests that reached the scheduler by `until` join the queue. */
  private arrive(until: number): void {
    while (this.next < this.requests.length && this.readyOf(this.next) <= until) {
      this.enqueue(this.next, (this.requests[this.next] as SimRequest).at);
      this.next++;
    }
  }

  private front(): Seq | undefined {
    return this.resumed.length > 0 ? this.resumed[this.resumed.length - 1] : this.waiting[this.head];
  }

  private dequeue(): void {
    if (this.resumed.length > 0) {
      this.resumed.pop();
      return;
    }
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
  }

  /** Queued requests that arrived by `until` start running, oldest first, while the caps and the cache allow. */
  private admit(until: number): void {
    if ((this.isStatic && this.running() > 0) || this.blocked) return;
    const rule = this.reserve;
    let room = rule
      ? this.opts.kvTokens - this.used - reservedOutput(rule, this.ratio, this.pending, this.decoding)
      : 0;
    for (let w = this.front(); w && this.running() < this.opts.maxNumSeqs && w.ready <= until; w = this.front()) {
      const need = this.held(w);
      if (need > this.opts.kvTokens) {
        this.dequeue();
        this.refused++;
        continue;
      }
      if (this.used + need > this.opts.kvTokens) break;
      if (rule) {
        // SGLang's NO_TOKEN: nobody is admitted until a running sequence ends (alone, a request always runs).
        const takes = admissionTokens(rule, w.target, w.output);
        if (takes >= room && this.running() > 0) {
          this.blocked = true;
          break;
        }
        room -= takes;
      }
      this.dequeue();
      w.admitted = this.admissions++;
      this.pending.push(w);
      this.used += need;
    }
  }

  /** The step's work: whether the decoding sequences decode, and which prompt chunks run (into `chunked`). */
  private plan(): { load: StepLoad; decodes: boolean } {
    const b = this.dep.engine.batching;
    this.chunked.length = 0;
    this.chunks.length = 0;
    const continuous = b.kind !== 'static';
    const decodes = this.pending.length === 0 || (continuous && (b.prefillWithDecodes ?? b.chunkedPrefill));
    let left = continuous ? this.opts.maxBatchedTokens - (decodes ? this.decoding.length : 0) : Infinity;
    for (const r of this.pending) {
      const rest = r.target - r.prefilled;
      if (continuous && b.chunkedPrefill) {
        // Chunked prefill: fill what the decodes (if they run) leave of the token budget.
        if (left <= 0) break;
        this.chunked.push(r);
        this.chunks.push(Math.min(left, rest));
        left -= Math.min(left, rest);
      } else {
        // Whole prompts, as many as the budget holds (at least one).
        if (rest > left && this.chunked.length > 0) break;
        this.chunked.push(r);
        this.chunks.push(rest);
        left -= rest;
      }
    }
    const prefill =
      this.chunked.length === 0
        ? NO_PREFILL
        : this.chunked.map((r, i) => ({ tokens: this.chunks[i] as number, past: r.prefilled }));
    return {
      load: {
        decodeSeqs: decodes ? this.decoding.length : 0,
        decodeContext: decodes ? this.decodeContext : 0,
        prefill,
      },
      decodes,
    };
  }

  private finish(r: Seq): void {
    this.used -= this.held(r);
    this.blocked = false;
    this.results[r.index] = {
      arrival: r.arrival,
      firstToken: r.firstToken,
      end: this.now,
      prompt: r.prompt,
      output: r.output,
    };
    if (this.opts.closedLoop !== undefined && this.next < this.requests.length) {
      // The user whose request ended sends the next one now.
      this.enqueue(this.next, this.now);
      this.next++;
    }
  }

  /** On-demand caches: the newest sequences give their cache back (recomputed later) while the cache overflows. */
  private preempt(): void {
    if (this.full) return;
    while (this.used > this.opts.kvTokens && this.running() > 1) {
      let at = -1;
      for (let i = 0; i < this.decoding.length; i++) {
        if (at < 0 || (this.decoding[i] as Seq).admitted > (this.decoding[at] as Seq).admitted) at = i;
      }
      const lastPending = this.pending[this.pending.length - 1];
      let victim: Seq;
      if (lastPending && (at < 0 || lastPending.admitted > (this.decoding[at] as Seq).admitted)) {
        victim = this.pending.pop() as Seq;
      } else {
        victim = this.decoding[at] as Seq;
        this.decoding[at] = this.decoding[this.decoding.length - 1] as Seq;
        this.decoding.pop();
        this.decodeContext -= victim.prompt + victim.generated;
      }
      this.used -= this.held(victim);
      victim.target = victim.prompt + victim.generated;
      victim.prefilled = 0;
      victim.kv = 0;
      this.resumed.push(victim);
      this.preemptions++;
      this.blocked = false;
      if (this.reserve) this.ratio = ratioAfterRetract(this.reserve, this.decoding);
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

  /**
   * The time up to which arrivals can join the next step: now, or for a scheduler one step ahead
   * the start of the step that just ended (the next step was formed then).
   */
  private formedAt(): number {
    return this.dep.engine.batching.scheduleAhead === true && this.stepEnd === this.now ? this.stepStart : this.now;
  }

  /** Whether a queued request could be admitted before a running one ends. */
  private admissionBlocked(): boolean {
    const w = this.front();
    if (!w) return true;
    if (this.isStatic || this.blocked || this.running() >= this.opts.maxNumSeqs) return true;
    return this.used + this.held(w) > this.opts.kvTokens;
  }

  /**
   * Decode steps that can run as one stretch: nothing is prefilled, nobody can join, no request
   * arrives, nobody ends before its last step, and the cache does not overflow. A step's cost is
   * linear in the context, so the stretch costs its steps at their middle context.
   */
  private stretch(load: StepLoad, stepUs: number): number {
    if (load.prefill.length > 0 || load.decodeSeqs === 0 || !this.admissionBlocked()) return 1;
    let k = this.minLeft;
    if (!Number.isFinite(k)) return 1;
    if (!this.full) k = Math.min(k, Math.floor((this.opts.kvTokens - this.used) / load.decodeSeqs));
    if (this.opts.closedLoop === undefined && this.next < this.requests.length) {
      const gap = this.readyOf(this.next) - this.now;
      k = Math.min(k, Math.floor(gap / Math.max(stepUs, 1e-9)));
    }
    k = Math.min(k, (this.opts.maxSteps ?? DEFAULT_MAX_STEPS) - this.steps);
    return Math.max(1, Math.floor(k));
  }

  private gap(us: number, count: number): void {
    if (count <= 0) return;
    this.gaps.push(us);
    this.gapCounts.push(count);
  }

  /**
   * A step of `us` that ran `k` decode steps: each decoding sequence gets k tokens, us/k apart.
   * Sequences that end leave the list (a static batch keeps its finished rows, as padding, until
   * its last ends).
   */
  private decoded(t0: number, us: number, k: number): void {
    let shared = 0;
    let kept = 0;
    let minLeft = Infinity;
    for (const r of this.decoding) {
      if (r.generated < r.output) {
        if (r.last === t0) shared += k;
        else {
          this.gap(t0 + us / k - r.last, 1);
          shared += k - 1;
        }
        r.generated += k;
        r.kv += k;
        r.last = this.now;
        this.decodeContext += k;
        if (!this.full) this.used += k;
      }
      if (r.generated < r.output) minLeft = Math.min(minLeft, r.output - r.generated);
      if (this.isStatic || r.generated < r.output) this.decoding[kept++] = r;
      else {
        this.decodeContext -= r.prompt + r.generated;
        this.finish(r);
      }
    }
    this.decoding.length = kept;
    this.minLeft = minLeft;
    this.gap(us / k, shared);
  }

  /**
   * Multi-step: `n` decode steps ran on one scheduling decision, ending now. Each decoding sequence
   * gets up to n tokens, which reach the client together now (one gap, since its last chunk); one
   * that ends mid-way leaves now.
   */
  private decodedWindow(n: number): void {
    let kept = 0;
    let minLeft = Infinity;
    for (const r of this.decoding) {
      const k = Math.min(n, r.output - r.generated);
      if (k > 0) {
        this.gap(this.now - r.last, 1);
        r.generated += k;
        r.kv += k;
        r.last = this.now;
        this.decodeContext += k;
        if (!this.full) this.used += k;
      }
      if (r.generated < r.output) {
        minLeft = Math.min(minLeft, r.output - r.generated);
        this.decoding[kept++] = r;
      } else {
        this.decodeContext -= r.prompt + r.generated;
        this.finish(r);
      }
    }
    this.decoding.length = kept;
    this.minLeft = minLeft;
  }

  /** The prompt chunks ran: sequences whose prefill is done sample a token and start decoding. */
  private prefilled(): void {
    let done = 0;
    for (let i = 0; i < this.chunked.length; i++) {
      const r = this.chunked[i] as Seq;
      r.prefilled += this.chunks[i] as number;
      r.kv += this.chunks[i] as number;
      if (r.prefilled < r.target) continue;
      // The prefill's last position samples a token: the first, or after a recompute the next one.
      if (r.firstToken < 0) r.firstToken = this.now;
      else this.gap(this.now - r.last, 1);
      r.generated += 1;
      r.kv += 1;
      r.last = this.now;
      done++;
      if (this.isStatic || r.generated < r.output) {
        this.decoding.push(r);
        this.decodeContext += r.prompt + r.generated;
        if (r.generated < r.output) this.minLeft = Math.min(this.minLeft, r.output - r.generated);
      } else this.finish(r);
    }
    if (done > 0) this.pending = this.pending.filter((r) => r.prefilled < r.target);
  }

  /** A static batch ends when its last row does: all its rows leave together. */
  private retireStatic(): void {
    if (!this.isStatic || this.pending.length > 0 || this.decoding.some((r) => r.generated < r.output)) return;
    for (const r of this.decoding) this.finish(r);
    this.decoding.length = 0;
    this.decodeContext = 0;
    this.minLeft = Infinity;
  }

  private step(): void {
    const { load, decodes } = this.plan();
    const n = this.opts.schedulerSteps ?? 1;
    // Multi-step: a decode-only step runs n steps on one scheduling decision (no prompt work in it).
    const multi = n > 1 && !this.isStatic && decodes && load.prefill.length === 0 && load.decodeSeqs > 0;
    const first = stepCost(this.dep, load).us;
    const k = multi ? n : this.stretch(load, first);
    const us =
      k === 1
        ? first
        : k * stepCost(this.dep, { ...load, decodeContext: load.decodeContext + (load.decodeSeqs * (k - 1)) / 2 }).us;
    // Requests that arrived during the step are counted from their arrival.
    const arrived = this.opts.closedLoop === undefined ? this.arrivedDuring(this.now + us) : 0;
    const queued = this.queued();
    const running = this.running();
    this.inSystemArea += (running + queued) * us + arrived;
    this.kvArea += this.used * us;
    this.peakKv = Math.max(this.peakKv, this.used);
    this.timeline.record(this.now, us, this.used, queued);
    const t0 = this.now;
    this.stepStart = t0;
    this.now += us;
    this.stepEnd = this.now;
    this.steps += k;
    this.peakRunning = Math.max(this.peakRunning, running);
    if (this.reserve && decodes && load.decodeSeqs > 0) this.ratio = decayedRatio(this.reserve, this.ratio, k);
    if (multi) this.decodedWindow(k);
    else if (decodes) this.decoded(t0, us, k);
    this.prefilled();
    this.retireStatic();
    this.preempt();
  }

  run(): SimResult {
    const first = this.requests[0]?.at ?? 0;
    const maxSteps = this.opts.maxSteps ?? DEFAULT_MAX_STEPS;
    if (this.opts.closedLoop !== undefined) {
      for (; this.next < Math.min(this.opts.closedLoop, this.requests.length); this.next++) {
        this.enqueue(this.next, first);
      }
    }
    this.now = first;
    let cut = false;
    while (this.next < this.requests.length || this.queued() > 0 || this.running() > 0) {
      const formed = this.formedAt();
      if (this.opts.closedLoop === undefined) this.arrive(formed);
      this.admit(formed);
      if (this.running() === 0 && formed < this.now) {
        // Nothing else would run: the scheduler takes what arrived during the last step now.
        if (this.opts.closedLoop === undefined) this.arrive(this.now);
        this.admit(this.now);
      }
      if (this.running() === 0) {
        // An idle engine starts its estimate again (SGLang resets new_token_ratio when no batch runs).
        this.ratio = this.reserve?.initRatio ?? 0;
        if (this.queued() > 0) this.now = Math.max(this.now, (this.front() as Seq).ready);
        else if (this.next >= this.requests.length) break;
        else this.now = Math.max(this.now, this.readyOf(this.next));
        continue;
      }
      if (this.steps >= maxSteps) {
        cut = true;
        break;
      }
      this.step();
    }
    const span = this.now - first;
    return {
      requests: this.results.filter((r): r is RequestResult => r !== null),
      makespanUs: span,
      steps: this.steps,
      preemptions: this.preemptions,
      peakRunning: this.peakRunning,
      meanInSystem: span > 0 ? this.inSystemArea / span : 0,
      meanKvTokens: span > 0 ? this.kvArea / span : 0,
      peakKvTokens: this.peakKv,
      kvSeries: this.timeline.series('kv', first, this.now),
      queueSeries: this.timeline.series('queue', first, this.now),
      itl: { gapsUs: this.gaps.values(), counts: this.gapCounts.values() },
      refused: this.refused,
      cut,
    };
  }
}

export function simulateReplica(dep: EngineDeployment, requests: readonly SimRequest[], opts: SimOptions): SimResult {
  return new ReplicaSim(dep, requests, opts).run();
}
