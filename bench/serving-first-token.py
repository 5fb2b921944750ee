"""Where a held-out first token's time goes (issue 61, branch h63-sgl-ttft). Diagnostic, nothing fitted.

The held-out SGLang 0.4.4.post3 TTFT cells (bench/engines/cells-heldout-vllm-team-sglang.json) come from
benchmark_serving result files saved with --save-result in simon-mo/vLLM-Benchmark; each file also holds
every request's TTFT and inter-token gaps ("ttfts", "itls"). This script reads them from a local clone
(git show, at the cells' commit) and prints, per run:
- idle: the first request's TTFT. benchmark_serving sends one warm-up request and waits for its whole
  answer before the timed run, so request 0 meets an idle engine: the published low-rate limit;
- the arrival of each later request, rebuilt from the client's own random stream (benchmark_serving:
  random.seed / np.random.seed(args.seed = 0), sample_random_requests draws input and output lengths and
  offsets with np.random.randint, then get_request sleeps np.random.gamma(burstiness 1, 1 / rate) after each
  request). Checked by alignment: each request's first token lands within a few ms before a gap in the
  stream of request 0 (its prefill step, which SGLang runs alone);
- for the first 12 later requests that met no queue (TTFT at most 1.5 x the idle one), medians of: pre =
  arrival to request 0's last token before the new request's first token (the request path, the wait for
  the steps already running or formed, and the prompt step's start); gap = that gap of request 0 less its
  median inter-token time before (base: the prompt step as a running stream sees it); post = the new first
  token after that last token;
- the longest gap of request 0 starting in the first 2 s (a stall every request arriving then waits out).

Run: python3 bench/serving-first-token.py /path/to/simon-mo/vLLM-Benchmark [file ...]
(files relative to saved-results/v0.8.2/, default: every SGLang and vLLM run of the H200 host).
Needs numpy (Debian python3-numpy).
"""
import json
import statistics
import subprocess
import sys

import numpy as np

COMMIT = "b2f80f2c9a2d1ae110f789939b13e2a84c71104e"
ROOT = "saved-results/v0.8.2/"
# tokenizer.vocab_size of the runs' tokenizers (Llama 3.x: 128000; Qwen2 / QwQ: 151643): the offsets' range.
VOCAB = {"qwq-32b": 151643}


def show(repo, rel):
    out = subprocess.run(["git", "-C", repo, "show", f"{COMMIT}:{ROOT}{rel}"], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def arrivals(n, inp, outp, rate, vocab):
    np.random.seed(0)
    np.random.randint(0, vocab, size=0)  # prefix tokens (--random-prefix-len 0)
    np.random.randint(inp, inp + 1, size=n)  # input lengths (range ratio 1)
    np.random.randint(outp, outp + 1, size=n)
    np.random.randint(0, vocab, size=n)  # offsets
    t = [0.0]
    for _ in range(n - 1):
        t.append(t[-1] + np.random.gamma(shape=1.0, scale=1.0 / rate))
    return np.array(t) * 1000


def split(d, rel):
    model, name = rel.split("/")[-2:]
    inp, outp = (int(x) for x in name.split(".")[0].split("-")[1:3])
    n = len(d["ttfts"])
    a = arrivals(n, inp, outp, d["request_rate"], VOCAB.get(model, 128000))
    ttft = [x * 1000 for x in d["ttfts"]]
    gaps0 = [x * 1000 for x in d["itls"][0]]
    times = np.cumsum([ttft[0]] + gaps0)
    pre, gap, post, bases = [], [], [], []
    quiet = [i for i in range(1, n) if ttft[i] <= 1.5 * ttft[0]][:12]
    for i in quiet:
        first = a[i] + ttft[i]
        k = int(np.searchsorted(times, first))
        if k < 13 or k >= len(times):
            continue
        base = statistics.median(np.diff(times[k - 12:k - 1]))
        pre.append(times[k - 1] - a[i])
        gap.append(times[k] - times[k - 1] - base)
        post.append(first - times[k - 1])
        bases.append(base)
    early = [g for g, t in zip(gaps0, times[:-1]) if t < 2000]  # gaps that start in the first 2 s
    med = lambda xs: statistics.median(xs) if xs else float("nan")  # noqa: E731
    return {
        "run": rel, "idle": ttft[0], "median": d["median_ttft_ms"], "pre": med(pre), "gap": med(gap),
        "post": med(post), "base": med(bases), "n": len(pre), "stall": max(early) if early else float("nan"),
        "chunks": len(d["itls"][0]) + 1, "tokens": d["output_lens"][0],
    }


def main():
    repo = sys.argv[1]
    rels = sys.argv[2:]
    if not rels:
        ls = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", COMMIT, ROOT], capture_output=True,
                            text=True, check=True).stdout.split()
        rels = [p[len(ROOT):] for p in ls if p.startswith(ROOT + "h200-brewster/") and "deepseek" not in p]
    print("| run | idle TTFT | median TTFT | pre | prompt step gap | post | base | requests | longest gap of request 0 "
          "in 2 s | chunks / tokens of request 0 |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for rel in rels:
        r = split(show(repo, rel), rel)
        print(f"| {r['run']} | {r['idle']:.1f} | {r['median']:.1f} | {r['pre']:.1f} | {r['gap']:.1f} | "
              f"{r['post']:.1f} | {r['base']:.2f} | {r['n']} | {r['stall']:.0f} | {r['chunks']} / {r['tokens']} |")


if __name__ == "__main__":
    main()
