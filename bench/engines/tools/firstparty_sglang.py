"""SGLang first-party figures (benchmark/ READMEs and docs of sgl-project/sglang, maintainers' PR outputs),
and the other engines' rows measured by the SGLang team (held out).
Writes cells-firstparty-sglang.json and cells-heldout-sglang-readmes.json."""
from fp_common import cell, num, row_cells, write

R = "sgl-project/sglang"
V060 = "sglang-bench-vllm060-readme"
V060_HO = "sglang-bench-vllm060-readme-vllm-rows"
H200 = "sglang-attention-backend-h200"
PR1060 = "sglang-pr1060-zhyncs"
SPEC = "sglang-docs-speculative-decoding"
V060_COMMIT = "120affb9613cc3f5bcd055ec09c7621d3ced0ebc"
sources = [
    {"id": V060, "set": "calibration", "engine": "sglang",
     "title": "SGLang benchmark/benchmark_vllm_060/README.md: 'How to reproduce the benchmark results for SGLang v0.3.0 "
              "compared to vLLM v0.6.0' (SGLang rows)", "repo": R, "path": "benchmark/benchmark_vllm_060/README.md",
     "commit": V060_COMMIT, "who": "The SGLang team (sgl-project), own benchmark with sglang.bench_serving on ShareGPT; first-party for SGLang",
     "tool": "sglang-bench-serving"},
    {"id": H200, "set": "calibration", "engine": "sglang",
     "title": "SGLang benchmark/attention_backend/NVIDIA_H200.md: bench_serving with attention backends fa3 and flashinfer, "
              "Meta-Llama-3.1-8B-Instruct", "repo": R, "path": "benchmark/attention_backend/NVIDIA_H200.md",
     "commit": "0c4ec4f9d0fd40c4f75258285c76c9de65524341",
     "who": "SGLang contributors, results committed to the SGLang repository's benchmark/ folder; first-party",
     "tool": "sglang-bench-serving"},
    {"id": PR1060, "set": "calibration", "engine": "sglang",
     "title": "SGLang PR #1060 'fix: temporary solution for DeepSeek V2 H100 layout conversion issue', comment by zhyncs 2024-08-13 "
              "(bench_serving on Meta-Llama-3.1-8B-Instruct, latest main)", "repo": R,
     "url": "https://github.com/sgl-project/sglang/pull/1060",
     "who": "zhyncs (Yineng Zhang, SGLang maintainer); first-party",
     "tool": "sglang-bench-serving"},
]
held_sources = [
    {"id": V060_HO, "set": "held-out",
     "title": "SGLang benchmark/benchmark_vllm_060/README.md: the vLLM v0.6.0 rows", "repo": R,
     "path": "benchmark/benchmark_vllm_060/README.md", "commit": V060_COMMIT,
     "who": "The SGLang team measuring vLLM v0.6.0 (--num-scheduler-steps 10, max_model_len 4096); one engine's team measuring another: held out"},
    {"id": SPEC, "set": "held-out",
     "title": "SGLang docs/advanced_features/speculative_decoding.md, 'Performance Highlights' table (LLaMA-Instruct 3.1 8B on MT bench)",
     "repo": R, "path": "docs/advanced_features/speculative_decoding.md", "commit": "067ad4d335bbd6da15d4a83a6f257cfa9e0f6be0",
     "who": "The figures are those of the EAGLE-3 paper (the doc points to it: 'For further details please see the EAGLE3 paper'), "
            "i.e. measured by the EAGLE authors with SGLang: treated as third-party, held out"},
]
cells, held = [], []

L8 = "llama-3.1-8b"
ARCH70 = {"family": "llama", "layers": 80, "hidden": 8192, "heads": 64, "kvHeads": 8, "ffn": 28672,
          "vocab": 128256, "context": 131072}  # meta-llama/Llama-3.1-70B config.json (catalog llama-3.1-70b)

# ---- benchmark_vllm_060 online tables
on_hdr = ("| RPS  | Num prompts | Engine | Median E2E Latency | Median TTFT | Median TPOT | Median ITL |\n"
          "|------|-------------|--------|--------------------|-------------|-------------|------------|")
on_hdr70 = on_hdr.replace("Num prompts", "Num Prompts")
online = {
    ("a100", "Llama 3.1 8B Instruct 1 x A100 80G", on_hdr): [
        "| 4    | 1200        | SGLang | 1564.17            | **31.98**   | 13.17       | **11.93**  |",
        "| 4    | 1200        | vLLM   | 1691.97            | **100.48**  | 14.14       | **129.32** |",
        "| 8    | 2400        | SGLang | 2175.02            | **35.68**   | 17.85       | **14.41**  |",
        "| 8    | 2400        | vLLM   | 2137.16            | **120.39**  | 17.09       | **158.63** |"],
    ("h100x4", "Llama 3.1 70B Instruct 4 x H100 80G", on_hdr70): [
        "| 4    | 1200        | SGLang | 3005.24            | **53.94**   | 25.03       | **21.67**  |",
        "| 4    | 1200        | vLLM   | 2915.60            | **179.15**  | 23.58       | **231.23** |",
        "| 8    | 2400        | SGLang | 4064.98            | **58.11**   | 33.07       | **24.45**  |",
        "| 8    | 2400        | vLLM   | 3752.38            | **207.12**  | 29.15       | **275.32** |"],
}
GPUNOTE = ("'A100 80G' / 'H100 80G' as written: SXM or PCIe is not stated. ")
for (gk, section, hdr), rows in online.items():
    for line in rows:
        r = row_cells(line)
        rps, n, eng = int(r[0]), int(r[1]), r[2]
        engine = "sglang" if eng == "SGLang" else "vllm"
        is8 = gk == "a100"
        m = {"model": L8} if is8 else {"model": "llama-3.1-70b"}
        gpu, gpus = ("A100 80G", 1) if is8 else ("H100 80G", 4)
        cfg = {"weights": "bf16 (checkpoint dtype, not stated)", "tp": 1 if is8 else 4, "requestRate": rps, "numPrompts": n,
               "dataset": "sharegpt"}
        if engine == "sglang":
            cfg.update({"radixCache": False})
            if is8:
                cfg["torchCompile"] = True
            if not is8:
                pass
            ver = "0.3.0"
            setup = ("sglang.launch_server --disable-radix-cache" + (" --enable-torch-compile" if is8 else " --tp 4") +
                     "; sglang.bench_serving --dataset-name sharegpt.")
        else:
            cfg.update({"numSchedulerSteps": 10, "maxModelLen": 4096})
            if not is8:
                cfg["gpuMemoryUtilization"] = 0.88
            ver = "0.6.0"
            setup = ("vllm.entrypoints.openai.api_server --num-scheduler-steps 10 --max_model_len 4096" +
                     (" --tensor 4 (gpu_memory_utilization set to 0.88)" if not is8 else "") +
                     "; sglang.bench_serving --backend vllm --dataset-name sharegpt.")
        cfg = {k: v for k, v in cfg.items() if not (k == "weights")}
        for col, kind, label in ((3, "e2e", "Median E2E Latency"), (4, "ttft", "Median TTFT"),
                                 (5, "tpot", "Median TPOT"), (6, "itl", "Median ITL")):
            c = cell(f"sgl-v060-{'sglang' if engine == 'sglang' else 'vllm'}-{gk}-{'8b' if is8 else '70b'}-rps{rps}-{kind}",
                     V060 if engine == "sglang" else V060_HO,
                     f"section 'Online benchmark results', table '{section}', row 'RPS {rps} | {eng}', column '{label}'",
                     hdr + "\n" + line, engine, gpu, gpus, kind, num(r[col].replace("*", "")), "ms", "median",
                     config=dict(cfg), engineVersion=ver,
                     note=GPUNOTE + setup + " ShareGPT prompt/output lengths (not stated as numbers); Poisson arrivals at the RPS. "
                          "Units: ms (not written in the table; the text calls them TTFT/ITL latencies).",
                     unsure="units (ms) and weights dtype not written in the table; SXM/PCIe not stated", **m)
            (cells if engine == "sglang" else held).append(c)

off_hdr = ("| RPS  | Num Prompts | Engine | Request throughput | Output token throughput |\n"
           "|------|-------------|--------|--------------------|-------------------------|")
offline = {
    ("a100", "Llama 3.1 8B Instruct 1 x A100 80G"): [
        "| inf  | 5000        | SGLang | 22.03              | **4281.51**             |",
        "| inf  | 5000        | vLLM   | 21.27              | **4132.37**             |"],
    ("h100x4", "Llama 3.1 70B Instruct 4 x H100 80G"): [
        "| inf  | 5000        | SGLang | 19.84              | **3856.01**             |",
        "| inf  | 5000        | vLLM   | 19.04              | **3700.64**             |"],
}
for (gk, section), rows in offline.items():
    for line in rows:
        r = row_cells(line)
        eng = r[2]
        engine = "sglang" if eng == "SGLang" else "vllm"
        is8 = gk == "a100"
        m = {"model": L8} if is8 else {"model": "llama-3.1-70b"}
        gpu, gpus = ("A100 80G", 1) if is8 else ("H100 80G", 4)
        cfg = {"tp": 1 if is8 else 4, "requestRate": "inf", "numPrompts": 5000, "dataset": "sharegpt"}
        if engine == "sglang":
            cfg["radixCache"] = False
            if is8:
                cfg["torchCompile"] = True
            else:
                cfg["memFractionStatic"] = 0.88
        else:
            cfg.update({"numSchedulerSteps": 10, "maxModelLen": 4096})
        ver = "0.3.0" if engine == "sglang" else "0.6.0"
        for col, unit, metric, suffix in ((3, "requests/s", "requests/s (all 5000 requests sent at once)", "req"),
                                          (4, "tokens/s", "output tokens/s (all 5000 requests sent at once)", "out")):
            c = cell(f"sgl-v060-{engine}-{gk}-{'8b' if is8 else '70b'}-offline-{suffix}", V060 if engine == "sglang" else V060_HO,
                     f"section 'Offline benchmark results', table '{section}', row 'inf | 5000 | {eng}', column "
                     f"'{'Request throughput' if col == 3 else 'Output token throughput'}'",
                     off_hdr + "\n" + line, engine, gpu, gpus, "throughput", num(r[col].replace("*", "")), unit, metric,
                     config=dict(cfg), engineVersion=ver,
                     note=GPUNOTE + "ShareGPT, 5000 prompts, request rate inf (sglang.bench_serving).", **m)
            (cells if engine == "sglang" else held).append(c)

# ---- attention_backend/NVIDIA_H200.md, Llama-3.1-8B (no speculative decoding)
h200_hdr = ("| Configuration | Input token throughput (tok/s) | Output token throughput (tok/s) |\n"
            "|-------------|----------------|----------------|")
for line in """| attn=fa3,random_input_len=1024,random_output_len=1024 | 5232.96    | 5355.04    |
| attn=flashinfer,random_input_len=1024,random_output_len=1024 | 4819.61    | 4932.05    |
| attn=fa3,random_input_len=8192,random_output_len=1024 | 17652.56   | 2275.40    |
| attn=flashinfer,random_input_len=8192,random_output_len=1024 | 13886.84   | 1790.00    |
| attn=fa3,random_input_len=8192,random_output_len=8192 | 2419.37    | 2588.25    |
| attn=flashinfer,random_input_len=8192,random_output_len=8192 | 1641.00    | 1755.54    |""".splitlines():
    r = row_cells(line)
    kv = dict(x.split("=") for x in r[0].split(","))
    attn, il, ol = kv["attn"], int(kv["random_input_len"]), int(kv["random_output_len"])
    cfg = {"attentionBackend": attn, "requestRate": 16, "numPrompts": 200, "dataset": "random",
           "promptTokens": il, "outputTokens": ol, "tp": 1}
    for col, what in ((1, "input"), (2, "output")):
        cells.append(cell(
            f"sgl-h200-llama31-8b-{attn}-in{il}-out{ol}-{what}", H200,
            f"section 'Experiment - bench_serving | Meta-Llama-3.1-8B-Instruct', row '{r[0]}', column "
            f"'{'Input' if col == 1 else 'Output'} token throughput (tok/s)'",
            h200_hdr + "\n" + line, "sglang", "H200", 1, "throughput", num(r[col]), "tokens/s",
            f"{what} tokens/s over the run (bench_serving, request rate 16)", model=L8, config=cfg,
            note=("Commands: sglang.launch_server --attention-backend " + attn + " --model-path Meta-Llama-3.1-8B-Instruct "
                  "(no --tp: one GPU); sglang.bench_serving --dataset-name random --request-rate 16 --num-prompts 200 "
                  f"--random-input-len {il} --random-output-len {ol}. promptTokens/outputTokens are the random dataset's "
                  "maximum lengths; --random-range-ratio is not given (the tool's default then applies), so actual lengths "
                  "may be sampled below them (input and output throughputs are in the ratio of the two lengths)."),
            unsure="SGLang version not stated; H200 variant (SXM/NVL) not stated; random-range-ratio left at its default"))

# ---- PR #1060, zhyncs
pr_q = ("python3 -m sglang.bench_serving --backend sglang --dataset-name random --num-prompts 1000 --random-input 8192 --random-output 8\n"
        "Request throughput (req/s):              6.81\nInput token throughput (tok/s):          27670.26")
cells.append(cell(
    "sgl-pr1060-llama31-8b-random-8192-8-input-throughput", PR1060,
    "comment by zhyncs 2024-08-13, block '# latest main', line 'Input token throughput (tok/s)'", pr_q, "sglang", "H100", 1,
    "throughput", 27670.26, "tokens/s", "input tokens/s (1000 requests of up to 8192 prompt tokens, 8 output tokens, all sent at once)",
    model=L8, config={"dataset": "random", "promptTokens": 8192, "outputTokens": 8, "numPrompts": 1000, "requestRate": "inf",
                      "torchCompile": True, "radixCache": False, "flashinfer": False},
    engineVersion="main of 2024-08-13",
    note=("Server: sglang.launch_server --model-path meta-llama/Meta-Llama-3.1-8B-Instruct --enable-torch-compile "
          "--disable-radix-cache --disable-flashinfer. Total input tokens 4064944 for 1000 requests (mean 4065, i.e. random "
          "lengths up to 8192). A prefill-dominated run."),
    unsure="GPU not named in the comment: H100 is inferred from the PR's subject (DeepSeek V2 H100 issue)"))

# ---- held out: docs speculative decoding baseline (EAGLE-3 paper figure)
sp_q = ("| Method | Throughput (tokens/s) |\n|--------|----------------|\n"
        "| SGLang (w/o speculative, 1x H100) | 158.34 tokens/s |")
held.append(cell(
    "sgl-docs-spec-baseline-h100-llama31-8b", SPEC,
    "section 'Performance Highlights', row 'SGLang (w/o speculative, 1x H100)'", sp_q, "sglang", "H100", 1, "decode", 158.34,
    "tokens/s", "generated tokens/s on MT bench (per request)", model=L8, config={"speculative": False, "tp": 1},
    note="LLaMA-Instruct 3.1 8B on MT bench; EAGLE-2 244.10 and EAGLE-3 373.25 tokens/s in the same table.",
    unsure="batch size not stated (EAGLE-3 paper's setting, presumably batch 1)"))

write("firstparty-sglang", "SGLang first-party figures: SGLang's own rows in its repository's benchmark/ READMEs and in "
      "maintainers' pull-request outputs.", sources, cells)
write("heldout-sglang-readmes", "Held-out figures found in SGLang's publications: other engines measured by the SGLang team "
      "(vLLM v0.6.0 in benchmark_vllm_060), and figures the SGLang docs take from a third party (the EAGLE-3 paper).",
      held_sources, held)
