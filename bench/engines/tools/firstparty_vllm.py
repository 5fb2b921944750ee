"""vLLM first-party figures: the vLLM blog (vllm-project/vllm-project.github.io _posts/), vLLM's performance CI
page, and benchmark outputs posted by vLLM maintainers in vllm-project/vllm pull requests.
Writes cells-firstparty-vllm.json."""
from fp_common import ARCH, cell, with_tool, write

E = "vllm"
BLOG = "vllm-project/vllm-project.github.io"
BLOG_COMMIT = "c3a01c4a5807c8d900ae468897e45263373e534e"
FP8 = "vllm-blog-fp8-kvcache"
L31 = "vllm-blog-llama31"
PERF = "vllm-blog-v060-perf-update"
CI = "vllm-perf-ci-build-9515"
P7117 = "vllm-pr7117-youkaichao"
P3692 = "vllm-pr3692-ywang96"
sources = [
    {"id": FP8, "set": "calibration", "engine": E,
     "title": "vLLM blog 'The State of FP8 KV-Cache and Attention Quantization in vLLM' (2026-04-22): single-request ITL fits "
              "and 'Throughput under Load' (Table 4)", "repo": BLOG, "path": "_posts/2026-04-22-fp8-kvcache.md",
     "commit": BLOG_COMMIT, "who": "vLLM contributors (Red Hat AI and AWS authors) on the vLLM project's blog; first-party"},
    {"id": L31, "set": "calibration", "engine": E,
     "title": "vLLM blog 'Announcing Llama 3.1 Support in vLLM' (2024-07-23), section 'FP8'", "repo": BLOG,
     "path": "_posts/2024-07-23-llama31.md", "commit": BLOG_COMMIT, "who": "The vLLM team on the vLLM blog; first-party"},
    {"id": PERF, "set": "calibration", "engine": E,
     "title": "vLLM blog 'vLLM v0.6.0: 2.7x Throughput Improvement and 5x Latency Reduction' (2024-09-05), text", "repo": BLOG,
     "path": "_posts/2024-09-05-perf-update.md", "commit": BLOG_COMMIT, "who": "The vLLM team on the vLLM blog; first-party"},
    {"id": CI, "set": "calibration", "engine": E,
     "title": "vLLM performance benchmark CI (Buildkite pipeline vllm/performance-benchmark), build 9515: latency and throughput tests on H200",
     "url": "https://buildkite.com/vllm/performance-benchmark/builds/9515", "repo": "vllm-project/vllm",
     "path": ".buildkite/nightly-benchmarks/tests/latency-tests.json",
     "who": "vLLM's own performance CI (tests defined in vllm-project/vllm .buildkite/nightly-benchmarks/tests/); the page as stored in the docs corpus; first-party"},
    {"id": P7117, "set": "calibration", "engine": E,
     "title": "vLLM PR #7117 '[core][misc] simply output processing with shortcut for non-parallel sampling and non-beam search usecase', "
              "comment by youkaichao 2024-08-04 ('On H100')", "repo": "vllm-project/vllm",
     "url": "https://github.com/vllm-project/vllm/pull/7117", "who": "youkaichao (vLLM maintainer); first-party",
     "tool": "vllm-benchmark-throughput"},
    {"id": P3692, "set": "calibration", "engine": E,
     "title": "vLLM PR #3692 '[Kernel] DBRX Triton MoE kernel H100' (merged), description", "repo": "vllm-project/vllm",
     "url": "https://github.com/vllm-project/vllm/pull/3692", "who": "ywang96 (Roger Wang, vLLM maintainer); first-party",
     "tool": "vllm-benchmark-latency"},
]
cells = []
L8 = "llama-3.1-8b"

# ---- FP8 KV-cache post, Table 4
t4 = ("| Config | Median TTFT (ms) | Median ITL (ms) | Total duration (s) | Output tok/s |\n"
      "| :---- | :---: | :---: | :---: | :---: |\n")
for line, kv, vals in (("| BF16 | 763.6 | 15.18 | 672.6 | 450.3 |", "bf16", (763.6, 15.18, 450.3)),
                       ("| FP8 | 742.8 | 12.93 | 585.2 | 517.5 |", "fp8", (742.8, 12.93, 517.5))):
    cfg = {"kvCache": kv, "concurrency": 8, "numPrompts": 150, "promptTokens": 20000, "outputTokens": 2000, "tp": 1,
           "attentionBackend": "FlashAttention-3 (vLLM fork)"}
    if kv == "fp8":
        cfg["attention"] = "fp8 (QK and ScoreV in FP8, e4m3)"
    common = dict(model=L8, engineVersion="0.19.1",
                  note=("'150 requests at concurrency 8, each with ~20k input tokens and ~2k output tokens (±15% variance)'; "
                        "Hopper runs on a single H100 with FlashAttention-3 (vLLM fork); Llama-3.1-8B (bf16 checkpoint)."),
                  unsure="engine version read from the post's 'after (v0.19.1)' (Table 3); Table 4 does not restate it; H100 variant not stated")
    for col, kind, val, unit, metric in ((1, "ttft", vals[0], "ms", "median"), (2, "itl", vals[1], "ms", "median"),
                                         (4, "throughput", vals[2], "tokens/s", "output tokens/s")):
        cells.append(cell(f"vllm-blog-fp8kv-h100-llama31-8b-{kv}-c8-{kind}", FP8,
                          f"section 'Throughput under Load', Table 4, row '{line.split('|')[1].strip()}', column "
                          f"'{['', 'Median TTFT (ms)', 'Median ITL (ms)', '', 'Output tok/s'][col]}'",
                          t4 + line, E, "H100", 1, kind, val, unit, metric, config=dict(cfg), **common))
# single-request ITL fits (intercept at zero context; slope in the note)
fits = [
    ("H100", "bf16", 6.44, "4.37e-05", "The fitted ITL slope drops from `4.37e-05` to `2.37e-05` ms/token, while the intercept changes only from `6.44` to `6.58` ms.",
     "section 'Single Request Benchmarking' (Llama-3.1-8B, Figure 2 text)", "FlashAttention-3 (vLLM fork)"),
    ("H100", "fp8", 6.58, "2.37e-05", "The fitted ITL slope drops from `4.37e-05` to `2.37e-05` ms/token, while the intercept changes only from `6.44` to `6.58` ms.",
     "section 'Single Request Benchmarking' (Llama-3.1-8B, Figure 2 text)", "FlashAttention-3 (vLLM fork)"),
    ("B200", "bf16", 3.93, "1.80e-05", "For Llama-3.1-8B on B200, the fitted ITL slope drops from `1.80e-05` to `9.72e-06` ms/token, while the intercept changes only from `3.93` to `3.96` ms.",
     "section 'Performance with FlashInfer on Blackwell (B200) GPUs' (Figure 5 text)", "FlashInfer"),
    ("B200", "fp8", 3.96, "9.72e-06", "For Llama-3.1-8B on B200, the fitted ITL slope drops from `1.80e-05` to `9.72e-06` ms/token, while the intercept changes only from `3.93` to `3.96` ms.",
     "section 'Performance with FlashInfer on Blackwell (B200) GPUs' (Figure 5 text)", "FlashInfer"),
]
for gpu, kv, icpt, slope, quote, where, backend in fits:
    cells.append(cell(
        f"vllm-blog-fp8kv-{gpu.lower()}-llama31-8b-{kv}-c1-itl-intercept", FP8, where, quote, E, gpu, 1, "itl", icpt, "ms",
        "fitted intercept of ITL = slope x input_len + intercept (concurrency 1)", model=L8,
        config={"kvCache": kv, "concurrency": 1, "outputTokens": 128, "depth": 0, "tp": 1, "attentionBackend": backend},
        engineVersion="0.19.1" if gpu == "H100" else None,
        note=(f"Linear fit of ITL against input length, `vllm bench serve` at concurrency 1, 128 output tokens, input lengths "
              f"swept from 256 to 125k tokens; fitted slope {slope} ms per context token (so ITL at 32k context is "
              f"intercept + slope x 32768). A fit, not one measured point."),
        unsure="a fitted parameter, not a measurement; version for the H100 fits read from Table 3 ('after (v0.19.1)'), not stated for B200"))

# ---- Llama 3.1 post, 405B FP8
q405 = ("Using the FP8 quantized model serving requests with the average input length of 1024 tokens and the average output "
        "length of 128 output tokens, the server can sustain 2.82 requests per second. The corresponding serving throughput is "
        "2884.86 input tokens per second and 291.53 output tokens per seconds, respectively.")
for suffix, val, unit, metric in (("req", 2.82, "requests/s", "requests/s sustained"),
                                  ("in", 2884.86, "tokens/s", "input tokens/s"),
                                  ("out", 291.53, "tokens/s", "output tokens/s")):
    cells.append(cell(
        f"vllm-blog-llama31-405b-fp8-tp8-{suffix}", L31, "section 'FP8', paragraph after `vllm serve meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 --tensor-parallel-size 8`",
        q405, E, "H100", 8, "throughput", val, unit, metric, arch=ARCH["llama-3.1-405b"],
        config={"weights": "fp8 (FBGEMM per-channel, first and last layer unquantized)", "tp": 8, "promptTokens": 1024,
                "outputTokens": 128},
        note="meta-llama/Meta-Llama-3.1-405B-Instruct-FP8; architecture from meta-llama/Llama-3.1-405B config.json. "
             "Input/output lengths are averages. 'The performance numbers posted later in the blog are meant as early reference points'.",
        unsure="the post says the command runs 'on a single 8xH100 or 8xA100' and does not say which machine measured this; H100 assumed; vLLM version (late July 2024, ~0.5.3) not stated"))

# ---- v0.6.0 post
cells.append(cell(
    "vllm-blog-v060-llama3-8b-light-load-tpot", PERF, "section on the API server (paragraph 'Through careful profiling')",
    "For example, Llama3 8B can generate 1 token every 13 ms under light load.", E, "H100", 1, "tpot", 13, "ms",
    "time per output token under light load", model=L8, config={},
    note="Llama 3 8B (catalog llama-3.1-8b dimensions). The post's profiling section is 'for Llama 3 8B running on 1 H100 GPU'.",
    unsure="GPU and vLLM version (v0.5.x before the v0.6.0 changes, or v0.6.0) not stated in the sentence; a rounded figure"))

# ---- Performance CI, build 9515 (H200)
lat_q = ("Test name | GPU | Mean latency (ms) | Median latency (ms) | P99 latency (ms) |\n---|---|---|---|---|\n")
for line, mkey, tp, val in (("latency_llama70B_tp4 | H200 | 2077.53 | 2077.56 | 2079.95 |", "70b", 4, 2077.53),
                            ("latency_llama8B_tp1 | H200 | 833.421 | 833.53 | 834.167 |", "8b", 1, 833.421),
                            ("latency_mixtral8x7B_tp2 | H200 | 1917.44 | 1916.58 | 1929 |", "mixtral", 2, 1917.44)):
    m = {"8b": {"model": L8}, "70b": {"arch": ARCH["llama-3-70b"]}, "mixtral": {"model": "mixtral-8x7b"}}[mkey]
    cells.append(cell(
        f"vllm-ci9515-h200-latency-{mkey}-tp{tp}", CI, f"section 'Latency tests', row '{line.split(' |')[0]}', column 'Mean latency (ms)'",
        lat_q + line, E, "H200", tp, "e2e", val, "ms", "mean latency of one batch (prefill 32 + 128 decode steps)",
        config={"tp": tp, "batch": 8, "promptTokens": 32, "outputTokens": 128, "loadFormat": "dummy"},
        note=("'Input length: 32 tokens. Output length: 128 tokens. Batch size: fixed (8).' (benchmark_latency). Models per the page: "
              "'llama-3.1 8B, llama-3 70B, mixtral 8x7B'; the tests JSON names meta-llama/Meta-Llama-3-8B, "
              "Meta-Llama-3-70B-Instruct, Mixtral-8x7B-Instruct-v0.1 with load_format dummy (5 warm-up, 15 iterations)."
              + (" 70B architecture from meta-llama/Meta-Llama-3-70B config.json." if mkey == "70b" else "")),
        unsure="vLLM version/commit of build 9515 not in the stored page; dtype not stated (checkpoint default bf16); H200 variant not stated; the tests JSON was read at a stored commit that may differ from the build's",
        **m))
thr_q = "Test name | GPU | Tput (req/s) |\n---|---|---|\n"
for line, mkey, tp, val in (("throughput_llama70B_tp4 | H200 | 9.83905 |", "70b", 4, 9.83905),
                            ("throughput_llama8B_tp1 | H200 | 22.5674 |", "8b", 1, 22.5674),
                            ("throughput_mixtral8x7B_tp2 | H200 | 8.06251 |", "mixtral", 2, 8.06251)):
    m = {"8b": {"model": L8}, "70b": {"arch": ARCH["llama-3-70b"]}, "mixtral": {"model": "mixtral-8x7b"}}[mkey]
    cells.append(cell(
        f"vllm-ci9515-h200-throughput-{mkey}-tp{tp}", CI, f"section 'Throughput tests', row '{line.split(' |')[0]}', column 'Tput (req/s)'",
        thr_q + line, E, "H200", tp, "throughput", val, "requests/s", "requests/s (offline benchmark_throughput)",
        config={"tp": tp, "numPrompts": 200, "dataset": "sharegpt", "loadFormat": "dummy"},
        note=("'Input length: randomly sample 200 prompts from ShareGPT dataset (with fixed random seed). Output length: the "
              "corresponding output length of these 200 prompts. Batch size: dynamically determined by vllm.'"),
        unsure="vLLM version/commit of build 9515 not in the stored page; dtype not stated; H200 variant not stated", **m))

# ---- PR #7117 (youkaichao, H100)
q7117 = ("On H100:\npython benchmarks/benchmark_throughput.py --input-len 256 --output-len 256 --model meta-llama/Meta-Llama-3-8B\n"
         "Main branch (3 trials):\nThroughput: 24.32 requests/s, 12453.04 tokens/s\nThroughput: 24.11 requests/s, 12342.76 tokens/s\n"
         "Throughput: 24.29 requests/s, 12434.40 tokens/s\nThis PR (3 trials):\nThroughput: 24.52 requests/s, 12555.73 tokens/s\n"
         "Throughput: 24.59 requests/s, 12591.35 tokens/s\nThroughput: 24.74 requests/s, 12667.68 tokens/s")
for suffix, val, unit, metric in (("req", 24.59, "requests/s", "requests/s (offline, median of the PR's 3 trials)"),
                                  ("tok", 12591.35, "tokens/s", "input+output tokens/s (offline, median of the PR's 3 trials)")):
    cells.append(cell(
        f"vllm-pr7117-h100-llama3-8b-in256-out256-{suffix}", P7117, "comment by youkaichao 2024-08-04, block 'This PR (3 trials)', second line",
        q7117, E, "H100", 1, "throughput", val, unit, metric, model=L8,
        config={"promptTokens": 256, "outputTokens": 256, "numPrompts": 1000, "tp": 1},
        engineVersion="PR #7117 (merged 2024-08-04, main ~0.5.4)",
        note="benchmark_throughput.py defaults: 1000 prompts, dtype auto (the checkpoint's bf16). Main branch before the PR: "
             "24.11-24.32 requests/s, 12342.76-12453.04 tokens/s. Meta-Llama-3-8B (catalog llama-3.1-8b dimensions).",
        unsure="num-prompts not written in the comment (the script's default 1000 assumed); H100 variant not stated"))

# ---- PR #3692 (ywang96, DBRX on H100)
DBRX = {"family": "llama", "layers": 40, "hidden": 6144, "heads": 48, "kvHeads": 8, "ffn": 10752, "vocab": 100352,
        "context": 32768, "experts": 16, "topK": 4}  # databricks/dbrx-instruct config.json
q3692 = """This PR
```
TP4
Batch size 8: Avg latency: 3.2545747229084374 seconds
Batch size 16: Avg latency: 3.6656158388964832 seconds
Batch size 32: Avg latency: 3.978769546896219 seconds
Batch size 64: Avg latency: 4.446144629847258 seconds

TP8
Batch size 8: Avg latency: 2.305059498753399seconds
Batch size 16: Avg latency: 2.564341889191419 seconds 
Batch size 32: Avg latency: 2.7666698359698056 seconds
Batch size 64: Avg latency: 3.3472835789062083 seconds
```"""
main3692 = {(4, 8): 3.383673385512084, (4, 16): 3.910283356476575, (4, 32): 5.204639058653266, (4, 64): 5.740127996951341,
            (8, 8): 2.3971098379790785, (8, 16): 2.7930808463692665, (8, 32): 3.329706186875701, (8, 64): 3.84231577526778}
pr3692 = {(4, 8): 3.2545747229084374, (4, 16): 3.6656158388964832, (4, 32): 3.978769546896219, (4, 64): 4.446144629847258,
          (8, 8): 2.305059498753399, (8, 16): 2.564341889191419, (8, 32): 2.7666698359698056, (8, 64): 3.3472835789062083}
for (tp, bs), val in pr3692.items():
    cells.append(cell(
        f"vllm-pr3692-h100-dbrx-tp{tp}-b{bs}-latency", P3692, f"description, block 'This PR', 'TP{tp}', line 'Batch size {bs}'",
        q3692, E, "H100", tp, "e2e", round(val, 4), "s", "average latency of one batch (benchmark_latency)", arch=DBRX,
        config={"tp": tp, "batch": bs, "promptTokens": 32, "outputTokens": 128, "numIters": 50},
        engineVersion="PR #3692 (merged 2024-03-28, ~0.4.0)",
        note=(f"benchmarks/benchmark_latency.py --model=databricks/dbrx-instruct --num-iters 50 --tp {tp} --batch-size {bs}; the "
              f"script's defaults then were input 32 and output 128 tokens. Main branch before the tuned H100 MoE config: "
              f"{main3692[(tp, bs)]:.4f} s. DBRX architecture from databricks/dbrx-instruct config.json (16 experts, top-4)."),
        unsure="input/output lengths are the script's defaults (32/128), not written in the PR; H100 variant not stated; dtype default (bf16)"))

# The CI page's tools: its latency tests run benchmark_latency (token ids), its throughput tests benchmark_throughput.
cells = [with_tool(c, "vllm-benchmark-latency" if c["kind"] == "e2e" else "vllm-benchmark-throughput")
         if c["source"] == CI else c for c in cells]

write("firstparty-vllm", "vLLM first-party figures: the vLLM blog's own measurements, vLLM's performance CI page, and "
      "benchmark outputs posted by vLLM maintainers in vLLM pull requests. (No other engine's rows appeared in the posts "
      "used, so no held-out vLLM-posts file is written.)", sources, cells)
