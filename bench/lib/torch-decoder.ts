/**
 * bench:decode's second engine: the decode check's Llama-shaped decoders (decoder-configs.ts: the
 * same GQA, SwiGLU, KV cache of `context` tokens and weights' sizes as the ONNX ones, with RMSNorm
 * as Llama has it) as eager PyTorch code, timed by a small Python script the bench writes.
 *
 * The job (shapes, thread counts, prompts, runs) goes in as data: one JSON literal, quoted for
 * Python, never pasted into code. The script runs in a child with a timeout; without torch it
 * prints one line, and the bench skips torch and says so.
 *
 * A decode step reads the cache in place as the ONNX 'read-once' step does (K kept transposed, one
 * bmm for the cached scores and one for the new token's, the probabilities split, two bmm for the
 * values); the cache is held fixed between steps, as there. A prefill runs the prompt's P rows
 * through every block with causal attention (each KV head's queries of its group in one bmm) and
 * the LM head on the last position only. fp32, batch 1, torch.inference_mode, torch.set_num_threads.
 * Each cell: warm-up runs, then at least `minRuns` (more while under `budgetMs`), timed one by one
 * with perf_counter; the median is reported.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DecoderShape } from '../../src-main/core/workload/generation.js';
import { decoderParams, decoderStepShape, type DecoderStepConfig } from '../../test/helpers/decoder-step-model.js';

export type TorchDecoderConfig = Omit<DecoderStepConfig, 'dataflow'> & { label: string };

export interface TorchDecoderJob {
  config: TorchDecoderConfig;
  threads: number[];
  /** Prompt lengths to prefill; none: decode steps only. */
  prompts: number[];
  /** Time a decode step at each thread count. */
  decode: boolean;
  warmupRuns: number;
  minRuns: number;
  /** Keep timing past minRuns while a cell has taken less than this (ms). */
  budgetMs: number;
}

export interface TorchCell {
  kind: 'decode' | 'prefill';
  /** Prompt tokens (prefill); the cached context (decode). */
  tokens: number;
  threads: number;
  medianUs: number;
  runs: number;
}

export type TorchDecoderResult =
  { ok: true; torch: string; params: number; cacheValues: number; cells: TorchCell[] } | { ok: false; line: string };

/** Eager ops one decode step issues from Python: per block 36 (two RMSNorms of 6), then embedding, final norm, head. */
export function torchStepOps(layers: number): number {
  return 36 * layers + 8;
}

/** The torch decoder's weights: the ONNX decoder's less the LayerNorms' biases (RMSNorm has a weight only). */
export function torchDecoderParams(c: Omit<DecoderStepConfig, 'context' | 'dataflow'>): number {
  return decoderParams(c).params - (2 * c.layers + 1) * c.hidden;
}

/** The torch decode step as the decode model (core/workload/generation.ts) sees it. */
export function torchStepShape(c: Omit<DecoderStepConfig, 'context' | 'dataflow'>): DecoderShape {
  return decoderStepShape(c, torchDecoderParams(c), torchStepOps(c.layers));
}

/** The script for `job`: the job as one quoted JSON literal, then the fixed code below. */
export function torchDecoderScript(job: TorchDecoderJob): string {
  // A JSON string is a valid Python string literal: the job cannot end the literal or run as code.
  return `import json, math, sys, time\nJOB = json.loads(${JSON.stringify(JSON.stringify(job))})\n${BODY}`;
}

const BODY = String.raw`
if sys.argv[1:] == ["--job"]:
    print(json.dumps(JOB))
    sys.exit(0)
try:
    import torch
    import torch.nn.functional as F
except Exception as e:
    print(json.dumps({"type": "no-torch", "error": "%s: %s" % (type(e).__name__, e), "executable": sys.executable}))
    sys.exit(0)

c = JOB["config"]
L, h, H, KV, FF, V, CTX = c["layers"], c["hidden"], c["heads"], c["kvHeads"], c["ffn"], c["vocab"], c["context"]
d, g = h // H, H // KV
torch.manual_seed(0)

def w(i, o):
    return torch.randn(i, o) / math.sqrt(i)

class Block:
    def __init__(self):
        self.n1, self.n2 = torch.ones(h), torch.ones(h)
        self.wq, self.wk, self.wv, self.wo = w(h, h), w(h, KV * d), w(h, KV * d), w(h, h)
        self.wg, self.wu, self.wd = w(h, FF), w(h, FF), w(FF, h)
        self.kt = torch.randn(KV, d, CTX)
        self.v = torch.randn(KV, CTX, d)

blocks = [Block() for _ in range(L)]
emb, final_norm, head = torch.randn(V, h) * 0.5, torch.ones(h), w(h, V)
scale = 1.0 / math.sqrt(d)

def rms(x, weight):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * weight

def mlp(b, x):
    n = rms(x, b.n2)
    return x + torch.mm(F.silu(torch.mm(n, b.wg)) * torch.mm(n, b.wu), b.wd)

def step(tok):
    x = F.embedding(tok, emb)
    for b in blocks:
        n = rms(x, b.n1)
        q = torch.mm(n, b.wq).view(KV, g, d)
        k = torch.mm(n, b.wk).view(KV, d, 1)
        v = torch.mm(n, b.wv).view(KV, 1, d)
        s = torch.cat((torch.bmm(q, b.kt), torch.bmm(q, k)), 2)
        past, new = torch.split(torch.softmax(s * scale, -1), [CTX, 1], 2)
        a = torch.bmm(past, b.v) + torch.bmm(new, v)
        x = mlp(b, x + torch.mm(a.view(1, h), b.wo))
    return torch.mm(rms(x, final_norm), head)

def prefill(ids, P, mask, pos_q, pos_k):
    x = F.embedding(ids, emb)
    for b in blocks:
        n = rms(x, b.n1)
        q = (torch.mm(n, b.wq) * pos_q).view(P, KV, g, d).permute(1, 2, 0, 3).reshape(KV, g * P, d)
        k = (torch.mm(n, b.wk) * pos_k).view(P, KV, d).permute(1, 2, 0)
        v = torch.mm(n, b.wv).view(P, KV, d).transpose(0, 1)
        p = torch.softmax(torch.bmm(q, k) * scale + mask, -1)
        a = torch.bmm(p, v).view(KV, g, P, d).permute(2, 0, 1, 3).reshape(P, h)
        x = mlp(b, x + torch.mm(a, b.wo))
    return torch.mm(rms(x[-1:], final_norm), head)

def timed(fn):
    for _ in range(JOB["warmupRuns"]):
        fn()
    runs, start = [], time.perf_counter()
    while len(runs) < JOB["minRuns"] or (time.perf_counter() - start) * 1000 < JOB["budgetMs"] and len(runs) < 400:
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t) * 1e6)
    runs.sort()
    n = len(runs)
    return {"medianUs": (runs[(n - 1) // 2] + runs[n // 2]) / 2, "runs": n}

cells = []
with torch.inference_mode():
    for threads in JOB["threads"]:
        torch.set_num_threads(threads)
        if JOB["decode"]:
            tok = torch.tensor([1])
            cells.append(dict(kind="decode", tokens=CTX, threads=threads, **timed(lambda: step(tok))))
        for P in JOB["prompts"]:
            ids = torch.arange(P) % V
            mask = torch.full((P, P), -1e9).triu(1).repeat(g, 1)
            pos_q, pos_k = torch.randn(P, h), torch.randn(P, KV * d)
            run = lambda: prefill(ids, P, mask, pos_q, pos_k)
            cells.append(dict(kind="prefill", tokens=P, threads=threads, **timed(run)))

params = sum(t.numel() for b in blocks for t in (b.n1, b.n2, b.wq, b.wk, b.wv, b.wo, b.wg, b.wu, b.wd))
params += emb.numel() + final_norm.numel() + head.numel()
cache = sum(b.kt.numel() + b.v.numel() for b in blocks)
print(json.dumps({"type": "result", "torch": torch.__version__, "params": params, "cacheValues": cache, "cells": cells}))
`;

/** Writes the job's script into `dir` and runs it in `python` (killed after `timeoutMs`); never rejects. */
export function runTorchDecoder(
  job: TorchDecoderJob,
  opts: { dir: string; python?: string; timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<TorchDecoderResult> {
  const file = path.join(opts.dir, `torch-decoder-${job.config.label.replace(/\W+/g, '_')}.py`);
  writeFileSync(file, torchDecoderScript(job));
  const python = opts.python ?? '/usr/bin/python3';
  return new Promise((resolve) => {
    execFile(
      python,
      [file],
      { timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20, env: opts.env ?? process.env },
      (err, stdout, stderr) => resolve(torchDecoderOutcome(python, err, stdout, stderr, opts.timeoutMs)),
    );
  });
}

/** The script's last line as a result, or one line saying why torch is skipped. */
function torchDecoderOutcome(
  python: string,
  err: (Error & { killed?: boolean }) | null,
  stdout: string,
  stderr: string,
  timeoutMs: number,
): TorchDecoderResult {
  if (err?.killed) return { ok: false, line: `torch decoder: killed after ${timeoutMs / 1000} s` };
  const last = stdout.trim().split('\n').pop() ?? '';
  let m: { type?: string; error?: string } & Record<string, unknown>;
  try {
    m = JSON.parse(last) as typeof m;
  } catch {
    const why = (stderr.trim().split('\n').pop() ?? '') || (err?.message ?? 'no output');
    return { ok: false, line: `torch decoder: ${python} failed: ${why}` };
  }
  if (m.type === 'no-torch')
    return { ok: false, line: `torch: skipped, no torch in ${python} (${m.error ?? 'import failed'})` };
  const { torch, params, cacheValues, cells } = m as unknown as Omit<Extract<TorchDecoderResult, { ok: true }>, 'ok'>;
  return { ok: true, torch, params, cacheValues, cells };
}
