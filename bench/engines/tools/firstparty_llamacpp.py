"""llama.cpp first-party figures: the repository's benches/ file and maintainers' llama-bench
tables in pull requests (ggerganov, JohannesGaessler, slaren). Writes cells-firstparty-llama-cpp.json."""
import re
from fp_common import ARCH, cell, num, row_cells, write

E = "llama.cpp"
GH = "https://github.com/ggml-org/llama.cpp/pull/"
sources = []
cells = []


def src(id, title, who, url=None, path=None, commit=None):
    s = {"id": id, "set": "calibration", "engine": E, "title": title, "repo": "ggml-org/llama.cpp"}
    if path:
        s["path"] = path
    if commit:
        s["commit"] = commit
    if url:
        s["url"] = url
    s["who"] = who
    sources.append(s)


WEIGHTS = {"F16": "fp16", "BF16": "bf16", "Q8_0": "q8_0", "Q4_0": "q4_0", "Q4_1": "q4_1",
           "Q2_K": "q2_k", "Q2_K_M": "q2_k_m", "Q3_K_S": "q3_k_s", "Q4_K_S": "q4_k_s",
           "Q5_0": "q5_0", "Q5_1": "q5_1", "Q6_K": "q6_k", "Q4_K_M": "q4_k_m"}
LLAMA8B_NOTE = ("llama-bench names LLaMA 3 8B 'llama 8B' (same dimensions as Llama 3.1 8B, the "
                "catalog model).")
LLAMA7B_NOTE = "llama-bench's 'llama 7B' = LLaMA (2) 7B."


def model_of(label):
    m = re.match(r"llama (7B|8B) (\S+)", label)
    size, q = m.group(1), m.group(2)
    return ("llama-7b" if size == "7B" else "llama-3.1-8b"), WEIGHTS[q], (
        LLAMA7B_NOTE if size == "7B" else LLAMA8B_NOTE)


def test_kind(test, ubatch):
    """pp/tg test name -> kind, config, metric."""
    m = re.match(r"(pp|tg) ?(\d+)(?: ?@ ?d(\d+))?$", test)
    t, n, d = m.group(1), int(m.group(2)), m.group(3)
    cfg = {"batch": 1}
    if d:
        cfg["depth"] = int(d)
    if t == "tg":
        cfg["outputTokens"] = n
        return "decode", cfg, f"tokens/s ({test}: {n} tokens generated one at a time" + (
            f" after a {d}-token context)" if d else " from an empty context)")
    cfg["promptTokens"] = n
    if ubatch == 1:
        return "decode", cfg, (f"tokens/s ({test} at microbatch 1: {n} single-token forward passes, "
                               f"context growing from {d or 0} to {int(d or 0) + n - 1}; batch-1 decoding)")
    return "prefill", cfg, f"prompt tokens/s ({test}" + (f" after a {d}-token context)" if d else ")")


# ---------------------------------------------------------------- benches/dgx-spark.md
DGX = "lcpp-benches-dgx-spark"
src(DGX, "llama.cpp repository, benches/dgx-spark.md: llama-bench and llama-batched-bench on NVIDIA "
    "DGX Spark (GB10), build 2f68ce7cf (6918)", "ggml-org maintainers (file added with "
    "scripts/bench-models.sh, PR #16894 by ggerganov, results of discussion #16578); first-party",
    path="benches/dgx-spark.md", commit="4c7e9893c4ca8eec35d032726d14b74fae76cff8")
GB10 = "NVIDIA GB10 (DGX Spark)"
qhdr = ("| model                          |       size |     params | backend    | ngl | n_ubatch | fa "
        "| mmap |            test |                  t/s |")
qrows = """| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |          pp2048 |       2276.28 ± 4.92 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |            tg32 |         29.30 ± 0.03 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |  pp2048 @ d4096 |       2090.96 ± 6.11 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |    tg32 @ d4096 |         28.27 ± 0.03 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |  pp2048 @ d8192 |       1913.47 ± 5.86 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |    tg32 @ d8192 |         27.42 ± 0.03 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 | pp2048 @ d16384 |       1643.88 ± 8.45 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |   tg32 @ d16384 |         25.93 ± 0.01 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 | pp2048 @ d32768 |       1283.36 ± 1.00 |
| qwen2 7B Q8_0                  |   7.54 GiB |     7.62 B | CUDA       |  99 |     2048 |  1 |    0 |   tg32 @ d32768 |         22.70 ± 0.02 |"""
QNOTE = ("Qwen2.5-Coder-7B (ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF); architecture from "
         "Qwen/Qwen2.5-Coder-7B config.json, the same dimensions as the catalog qwen2.5-7b. "
         "Full offload (ngl 99), FlashAttention on, mmap off, n_ubatch 2048. GB10 is not in models/gpus.json.")
for line in qrows.splitlines():
    r = row_cells(line)
    test = r[8].replace(" ", "")
    kind, cfg, metric = test_kind(r[8].replace(" @ ", "@"), 2048)
    cfg.update({"weights": "q8_0", "ngl": 99, "ubatch": 2048, "flashAttention": True})
    cells.append(cell(f"lcpp-gb10-qwen25coder7b-q8_0-{test.replace('@', '-')}", DGX,
                      f"section 'ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF', llama-bench table, row '{r[8]}'",
                      qhdr + "\n" + line, E, GB10, 1, kind, num(r[9]), "tokens/s", metric,
                      arch=ARCH["qwen2.5-coder-7b"], config=cfg, engineVersion="build 2f68ce7cf (6918)",
                      note=QNOTE))
bhdr = "|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |"
brows = """|   512 |     32 |    1 |    544 |    0.215 |  2379.83 |    1.095 |    29.24 |    1.310 |   415.37 |
|   512 |     32 |    2 |   1088 |    0.424 |  2416.31 |    1.175 |    54.46 |    1.599 |   680.46 |
|   512 |     32 |    4 |   2176 |    0.880 |  2328.41 |    1.227 |   104.33 |    2.106 |  1033.02 |
|   512 |     32 |    8 |   4352 |    1.738 |  2356.86 |    1.308 |   195.67 |    3.046 |  1428.66 |
|   512 |     32 |   16 |   8704 |    3.472 |  2359.65 |    1.528 |   335.01 |    5.000 |  1740.80 |
|   512 |     32 |   32 |  17408 |    6.956 |  2355.21 |    1.726 |   593.27 |    8.683 |  2004.95 |
|  4096 |     32 |    1 |   4128 |    1.813 |  2259.55 |    1.126 |    28.42 |    2.939 |  1404.78 |
|  4096 |     32 |    2 |   8256 |    3.601 |  2274.88 |    1.246 |    51.35 |    4.848 |  1703.13 |
|  4096 |     32 |    4 |  16512 |    7.203 |  2274.48 |    1.364 |    93.86 |    8.567 |  1927.37 |
|  4096 |     32 |    8 |  33024 |   14.403 |  2275.04 |    1.570 |   163.10 |   15.973 |  2067.50 |
|  4096 |     32 |   16 |  66048 |   28.797 |  2275.78 |    2.025 |   252.80 |   30.822 |  2142.85 |
|  4096 |     32 |   32 | 132096 |   57.630 |  2274.38 |    2.716 |   377.05 |   60.346 |  2188.99 |
|  8192 |     32 |    1 |   8224 |    3.746 |  2186.60 |    1.164 |    27.50 |    4.910 |  1674.94 |
|  8192 |     32 |    8 |  65792 |   29.837 |  2196.49 |    1.843 |   138.88 |   31.680 |  2076.77 |
|  8192 |     32 |   32 | 263168 |  119.441 |  2194.75 |    3.818 |   268.20 |  123.259 |  2135.08 |"""
for line in brows.splitlines():
    r = row_cells(line)
    pp, tg, b = int(r[0]), int(r[1]), int(r[2])
    cells.append(cell(
        f"lcpp-gb10-qwen25coder7b-q8_0-batched-pp{pp}-b{b}-tg", DGX,
        f"section 'ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF', llama-batched-bench table, row 'PP {pp} | TG {tg} | B {b}', column 'S_TG t/s'",
        bhdr + "\n" + line, E, GB10, 1, "decode", num(r[7]), "tokens/s",
        f"generated tokens/s summed over the {b} sequences (S_TG = B*TG/T_TG)",
        arch=ARCH["qwen2.5-coder-7b"],
        config={"weights": "q8_0", "batch": b, "depth": pp, "outputTokens": tg, "ubatch": 2048,
                "flashAttention": True, "ngl": "all (-1)"},
        engineVersion="build 2f68ce7cf (6918)",
        note=("llama-batched-bench (is_pp_shared 0): B sequences each with its own PP-token prompt, then TG "
              "tokens generated for all B together. " + QNOTE)))
    if b == 1:
        cells.append(cell(
            f"lcpp-gb10-qwen25coder7b-q8_0-batched-pp{pp}-b1-pp", DGX,
            f"section 'ggml-org/Qwen2.5-Coder-7B-Q8_0-GGUF', llama-batched-bench table, row 'PP {pp} | TG {tg} | B 1', column 'S_PP t/s'",
            bhdr + "\n" + line, E, GB10, 1, "prefill", num(r[5]), "tokens/s", f"prompt tokens/s ({pp}-token prompt, one sequence)",
            arch=ARCH["qwen2.5-coder-7b"],
            config={"weights": "q8_0", "batch": 1, "promptTokens": pp, "ubatch": 2048, "flashAttention": True},
            engineVersion="build 2f68ce7cf (6918)", note=QNOTE))


# ---------------------------------------------------------------- PR comparison tables
def pr_table(sid, pr, title, who, gpu_map, header, rows, where_prefix, version, col_ubatch,
             col_fa=None, value_col=-2, master_col=-3, extra_note=None, unsure=None):
    if sid not in {s["id"] for s in sources}:
        src(sid, title, who, url=GH + str(pr))
    for line in rows.strip().splitlines():
        r = row_cells(line)
        gpu_label, label = r[0], r[1]
        ub = int(r[col_ubatch]) if col_ubatch is not None else None
        test = r[col_ubatch + 1 if col_ubatch is not None else 2]
        if col_fa is not None and col_fa > col_ubatch:
            test = r[col_fa + 1]
        model, w, mnote = model_of(label)
        kind, cfg, metric = test_kind(test, ub)
        cfg["weights"] = w
        if ub is not None:
            cfg["ubatch"] = ub
        if col_fa is not None:
            cfg["flashAttention"] = r[col_fa] == "Yes"
        value = num(r[value_col])
        mv = num(r[master_col])
        gpu, gpus = gpu_map[gpu_label]
        gid = gpu.lower().replace(" ", "").replace("rtx", "rtx")
        cid = f"lcpp-pr{pr}-{gid}-{label.split()[1].lower()}-{label.split()[2].lower()}-{test.replace('@', '-')}" + (
            f"-ub{ub}" if ub is not None else "")
        cells.append(cell(cid, sid, f"{where_prefix}, row '{gpu_label} | {label} |"
                          + (f" {ub} |" if ub is not None else "") + f" {test}'",
                          (header + "\n" + line) if header else line, E, gpu, gpus, kind, value,
                          "tokens/s", metric, model=model, config=cfg, engineVersion=version,
                          note=" ".join(x for x in [f"Master column {mv:g} t/s (speedup {r[-1]}).", mnote, extra_note] if x),
                          unsure=unsure))


G = {"RTX 4090": ("RTX 4090", 1), "RTX 3090": ("RTX 3090", 1), "P40": ("P40", 1)}

pr_table("lcpp-pr7676", 7676, "llama.cpp PR #7676 'CUDA: use tensor cores for MMQ' (merged), turn 2",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table, master vs PR branch; first-party",
         G, "| GPU        | Model           |     Microbatch size | Test     |     t/s master |     t/s cuda-ptx-mma-7 |     Speedup |",
         """| RTX 4090   | llama 8B Q4_0   |                  16 | pp512    |        1596.75 |                1937.21 |        1.21 |
| RTX 4090   | llama 8B Q4_0   |                  32 | pp512    |        2621.55 |                3427.61 |        1.31 |
| RTX 4090   | llama 8B Q4_0   |                  64 | pp512    |        3704.48 |                5420.06 |        1.46 |
| RTX 4090   | llama 8B Q4_0   |                 128 | pp512    |        3578.31 |                7443.66 |        2.08 |
| RTX 4090   | llama 8B Q4_0   |                 256 | pp512    |        5838.52 |                9601.53 |        1.64 |
| RTX 4090   | llama 8B Q4_0   |                 512 | pp512    |        7776.11 |               10358.75 |        1.33 |
| RTX 4090   | llama 8B Q4_1   |                  16 | pp512    |        1558.45 |                1888.20 |        1.21 |
| RTX 4090   | llama 8B Q4_1   |                  32 | pp512    |        2578.79 |                3252.02 |        1.26 |
| RTX 4090   | llama 8B Q4_1   |                  64 | pp512    |        3683.87 |                5778.21 |        1.57 |""",
         "turn 2 (JohannesGaessler), table 'master vs cuda-ptx-mma-7', column 't/s cuda-ptx-mma-7'",
         "PR #7676 branch cuda-ptx-mma-7 (merged June 2024)", 2,
         extra_note="The turn holds two tables with the same PR column and different master columns (another excerpt "
                    "shows master 6279.91 t/s at microbatch 512): the PR column is the one quoted.")
pr_table("lcpp-pr7676", 7676, "", "", G, "| GPU        | Model           |     Microbatch size | Test     |     t/s master |     t/s cuda-ptx-mma-7 |     Speedup |",
         """| RTX 3090   | llama 8B Q5_0   |                 256 | pp512    |        2144.71 |                3518.48 |        1.64 |
| RTX 3090   | llama 8B Q5_0   |                 512 | pp512    |        2256.40 |                3654.78 |        1.62 |
| RTX 3090   | llama 8B Q5_1   |                  16 | pp512    |         686.36 |                1014.38 |        1.48 |
| RTX 3090   | llama 8B Q5_1   |                  32 | pp512    |         894.08 |                1530.24 |        1.71 |
| RTX 3090   | llama 8B Q5_1   |                  64 | pp512    |        1298.23 |                1986.79 |        1.53 |
| RTX 3090   | llama 8B Q5_1   |                 128 | pp512    |        1638.68 |                2667.84 |        1.63 |
| RTX 3090   | llama 8B Q5_1   |                 256 | pp512    |        2053.43 |                3355.29 |        1.63 |
| RTX 3090   | llama 8B Q5_1   |                 512 | pp512    |        2190.26 |                3493.64 |        1.60 |
| RTX 3090   | llama 8B Q8_0   |                  16 | pp512    |         575.23 |                 825.82 |        1.44 |
| RTX 3090   | llama 8B Q8_0   |                  32 | pp512    |         934.07 |                1437.37 |        1.54 |
| RTX 3090   | llama 8B Q8_0   |                  64 | pp512    |        1357.47 |                2242.88 |        1.65 |""",
         "turn 2 (JohannesGaessler), column 't/s cuda-ptx-mma-7'", "PR #7676 branch cuda-ptx-mma-7 (merged June 2024)", 2)

pr_table("lcpp-pr7860", 7860, "llama.cpp PR #7860 'CUDA: int8 tensor cores for MMQ (q4_K, q5_K, q6_K)' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, "| GPU        | Model             |     Microbatch size | Test     |     t/s master |     t/s cuda-ptx-mma-12 |     Speedup |",
         """| RTX 4090   | llama 8B Q4_K_S   |                  16 | pp2048   |        1463.94 |                 1946.01 |        1.33 |
| RTX 4090   | llama 8B Q4_K_S   |                  32 | pp2048   |        2341.23 |                 3358.03 |        1.43 |
| RTX 4090   | llama 8B Q4_K_S   |                  64 | pp2048   |        3387.63 |                 5349.26 |        1.58 |
| RTX 4090   | llama 8B Q4_K_S   |                 128 | pp2048   |        4443.87 |                 6901.00 |        1.55 |
| RTX 4090   | llama 8B Q4_K_S   |                 256 | pp2048   |        5222.84 |                 8555.10 |        1.64 |
| RTX 4090   | llama 8B Q4_K_S   |                 512 | pp2048   |        5611.17 |                 9278.55 |        1.65 |
| RTX 4090   | llama 8B Q4_K_S   |                1024 | pp2048   |        5806.79 |                 9265.84 |        1.60 |
| RTX 4090   | llama 8B Q4_K_S   |                2048 | pp2048   |        5549.92 |                 8655.44 |        1.56 |
| RTX 3090   | llama 8B Q6_K     |                 256 | pp2048   |        1891.89 |                 3333.43 |        1.76 |
| RTX 3090   | llama 8B Q6_K     |                 512 | pp2048   |        2002.13 |                 3491.20 |        1.74 |
| RTX 3090   | llama 8B Q6_K     |                1024 | pp2048   |        2076.91 |                 3593.81 |        1.73 |
| RTX 3090   | llama 8B Q6_K     |                2048 | pp2048   |        2034.32 |                 3525.21 |        1.73 |""",
         "turn 0 (JohannesGaessler), column 't/s cuda-ptx-mma-12'", "PR #7860 branch cuda-ptx-mma-12 (merged June 2024)", 2)

pr_table("lcpp-pr7921", 7921, "llama.cpp PR #7921 'CUDA: faster q2_K, q3_K MMQ + int8 tensor cores' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, "| GPU        | Model             |     Microbatch size | Test     |     t/s master |     t/s cuda-ptx-mma-17 |     Speedup |",
         """| RTX 4090   | llama 8B Q2_K_M   |                  16 | pp2048   |        1190.56 |                 1702.40 |        1.43 |
| RTX 4090   | llama 8B Q2_K_M   |                  64 | pp2048   |        2462.88 |                 4120.64 |        1.67 |
| RTX 4090   | llama 8B Q2_K_M   |                 256 | pp2048   |        3553.10 |                 7022.20 |        1.98 |
| RTX 4090   | llama 8B Q2_K_M   |                 512 | pp2048   |        3909.38 |                 7639.35 |        1.95 |
| RTX 4090   | llama 8B Q2_K_M   |                2048 | pp2048   |        3936.76 |                 7083.78 |        1.80 |""",
         "turn 0 (JohannesGaessler), column 't/s cuda-ptx-mma-17'", "PR #7921 branch cuda-ptx-mma-17 (merged June 2024)", 2)

pr_table("lcpp-pr7824", 7824, "llama.cpp PR #7824 'CUDA: revise q8_1 data layout for mul_mat_q' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, "| GPU        | Model             |     Microbatch size | FlashAttention     | Test     |     t/s master |     t/s cuda-mmq-q8_1-2 |     Speedup |",
         """| RTX 4090   | llama 8B Q2_K_M   |                  16 | Yes                | pp512    |        1102.82 |                 1118.51 |        1.01 |
| RTX 4090   | llama 8B Q2_K_M   |                  32 | Yes                | pp512    |        1562.51 |                 1584.70 |        1.01 |
| RTX 4090   | llama 8B Q2_K_M   |                  64 | Yes                | pp512    |        2022.17 |                 2033.73 |        1.01 |
| RTX 4090   | llama 8B Q2_K_M   |                 128 | Yes                | pp512    |        3726.70 |                 3728.89 |        1.00 |
| RTX 4090   | llama 8B Q2_K_M   |                 256 | Yes                | pp512    |        5989.97 |                 5990.15 |        1.00 |
| RTX 4090   | llama 8B Q2_K_M   |                 512 | Yes                | pp512    |        7825.63 |                 7816.57 |        1.00 |""",
         "turn 0 (JohannesGaessler), column 't/s cuda-mmq-q8_1-2'", "PR #7824 branch cuda-mmq-q8_1-2 (merged June 2024)", 2, col_fa=3)

pr_table("lcpp-pr15131", 15131, "llama.cpp PR #15131 'CUDA: GEMM for FP32/FP16/BF16 and ne11 <= 16' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, "| GPU        | Model              | FlashAttention     |     Microbatch size | Test     |     t/s master |     t/s cuda-mmf-2 |     Speedup |",
         """| RTX 4090   | llama 8B BF16      | Yes                |                   1 | pp512    |          65.21 |              65.20 |        1.00 |
| RTX 4090   | llama 8B BF16      | Yes                |                   2 | pp512    |         124.64 |             124.32 |        1.00 |
| RTX 4090   | llama 8B BF16      | Yes                |                   4 | pp512    |         245.00 |             246.37 |        1.01 |
| RTX 4090   | llama 8B BF16      | Yes                |                   8 | pp512    |         457.75 |             485.16 |        1.06 |
| RTX 4090   | llama 8B Q4_0      | No                 |                  10 | pp512    |        1183.07 |            1216.63 |        1.03 |
| RTX 4090   | llama 8B Q4_0      | No                 |                  12 | pp512    |        1424.18 |            1460.17 |        1.03 |
| RTX 4090   | llama 8B Q4_0      | No                 |                  14 | pp512    |        1637.70 |            1684.51 |        1.03 |
| RTX 4090   | llama 8B Q4_0      | No                 |                  16 | pp512    |        1891.88 |            1930.50 |        1.02 |""",
         "turn 0 (JohannesGaessler), column 't/s cuda-mmf-2'", "PR #15131 branch cuda-mmf-2 (merged August 2025)", 3, col_fa=2)

pr_table("lcpp-pr15802", 15802, "llama.cpp PR #15802 'CUDA: fastdiv, launch bounds for mmvq + q8_1 quant' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, "| GPU           | Model           | FlashAttention     |     Microbatch size | Test     |     t/s master |     t/s bc7497a09 |     Speedup |",
         """| RTX 3090      | llama 8B Q4_0   | Yes                |                   1 | pp512    |         155.02 |            156.56 |        1.01 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   2 | pp512    |         277.36 |            279.89 |        1.01 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   3 | pp512    |         390.23 |            390.96 |        1.00 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   4 | pp512    |         468.95 |            470.48 |        1.00 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   5 | pp512    |         514.50 |            509.70 |        0.99 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   6 | pp512    |         529.37 |            541.57 |        1.02 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   7 | pp512    |         559.17 |            559.30 |        1.00 |
| RTX 3090      | llama 8B Q4_0   | Yes                |                   8 | pp512    |         570.67 |            583.77 |        1.02 |""",
         "turn 0 (JohannesGaessler), column 't/s bc7497a09'", "PR #15802 commit bc7497a09 (merged September 2025)", 3, col_fa=2)

pr_table("lcpp-pr17505", 17505, "llama.cpp PR #17505 'CUDA: generalized (mma) FA, add Volta support' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, None,
         """| RTX 3090              | llama 8B Q4_0   |                   2 | pp512@d32768   |         160.48 |            170.31 |        1.06 |
| RTX 3090              | llama 8B Q4_0   |                   4 | pp512@d32768   |         293.48 |            303.46 |        1.03 |
| RTX 3090              | llama 8B Q4_0   |                   8 | pp512@d32768   |         429.51 |            439.54 |        1.02 |
| RTX 3090              | llama 8B Q4_0   |                  16 | pp512@d32768   |         844.62 |            874.15 |        1.03 |
| RTX 3090              | llama 8B Q4_0   |                  32 | pp512@d32768   |        1184.30 |           1194.99 |        1.01 |
| RTX 3090              | llama 8B Q4_0   |                  64 | pp512@d32768   |        1491.70 |           1495.43 |        1.00 |
| RTX 3090              | llama 8B Q4_0   |                 128 | pp512@d32768   |        1612.42 |           1617.77 |        1.00 |
| RTX 3090              | llama 8B Q4_0   |                 256 | pp512@d32768   |        1716.96 |           1697.92 |        0.99 |
| RTX 3090              | llama 8B Q4_0   |                 512 | pp512@d32768   |        1470.93 |           1448.12 |        0.98 |
| RTX 4090              | llama 8B Q4_0   |                   1 | pp512@d32768   |          98.14 |            102.76 |        1.05 |""",
         "turn 0 (JohannesGaessler), PR column (header not in the stored excerpt)", "PR #17505 (merged, late 2025)", 2,
         extra_note="FlashAttention is the subject of the PR (FA kernels), so the rows are with FA on.",
         unsure="the RTX 3090/4090 rows' header is not in their excerpt; the same turn's V100 table reads '| GPU | Model | Microbatch size | Test | t/s master | t/s 277014f50 | Speedup |' and the rows are read that way; FA on inferred from the PR's subject")

pr_table("lcpp-pr6646", 6646, "llama.cpp PR #6646 'CUDA: faster FlashAttention for batch sizes > 1' (merged), description",
         "JohannesGaessler (llama.cpp CUDA maintainer), compare-llama-bench table; first-party",
         G, None,
         """| RTX 3090   | llama 7B Q4_0   |              1 | pp4096   |                125.30 |                   126.03 |        1.01 |
| RTX 3090   | llama 7B Q4_0   |              2 | pp4096   |                225.69 |                   240.07 |        1.06 |""",
         "turn 0 (JohannesGaessler), PR column (header not in the stored excerpt)", "PR #6646 (merged April 2024)", 2,
         unsure="table header not in the stored excerpt: columns read as GPU | Model | Batch (microbatch) size | Test | t/s master | t/s PR | Speedup; FlashAttention on inferred from the PR's subject")

# ---------------------------------------------------------------- PR #4766: two maintainers' tables
S4766 = "lcpp-pr4766"
src(S4766, "llama.cpp PR #4766 'llama : ggml-backend integration' (merged January 2024): JohannesGaessler's "
    "comparison (turn 56) and ggerganov's llama-bench run on RTX 4090 (comment 2024-01-10)",
    "JohannesGaessler and ggerganov (llama.cpp maintainers); first-party", url=GH + "4766")
h56 = "| GPU        |     Main GPU | Model             | Test     |     t/s master |     t/s sl/backend-sched |     Speedup |"
r56 = """| RTX 3090   |            0 | llama 7B F16      | pp512    |        4184.85 |                  4407.44 |        1.05 |
| RTX 3090   |            0 | llama 7B F16      | tg128    |          48.52 |                    48.09 |        0.99 |
| RTX 3090   |            0 | llama 7B Q2_K     | pp512    |        3340.73 |                  3462.77 |        1.04 |
| RTX 3090   |            0 | llama 7B Q2_K     | tg128    |          92.69 |                    91.62 |        0.99 |
| RTX 3090   |            0 | llama 7B Q3_K_S   | pp512    |        3305.67 |                  3409.98 |        1.03 |
| RTX 3090   |            0 | llama 7B Q3_K_S   | tg128    |          87.26 |                    85.45 |        0.98 |
| RTX 3090   |            0 | llama 7B Q4_0     | pp512    |        3408.18 |                  3510.53 |        1.03 |
| RTX 3090   |            0 | llama 7B Q4_0     | tg128    |         121.82 |                   119.90 |        0.98 |
| RTX 3090   |            0 | llama 7B Q4_1     | pp512    |        3406.85 |                  3503.12 |        1.03 |
| P40        |            0 | llama 7B Q2_K     | tg128    |          33.52 |                    33.36 |        1.00 |
| P40        |            0 | llama 7B Q3_K_S   | pp512    |         583.04 |                   592.36 |        1.02 |
| P40        |            0 | llama 7B Q3_K_S   | tg128    |          30.93 |                    30.74 |        0.99 |
| P40        |            0 | llama 7B Q4_0     | pp512    |         912.41 |                   934.74 |        1.02 |
| P40        |            0 | llama 7B Q4_0     | tg128    |          56.79 |                    56.29 |        0.99 |
| P40        |            0 | llama 7B Q4_1     | pp512    |         909.20 |                   934.87 |        1.03 |
| P40        |            0 | llama 7B Q4_1     | tg128    |          55.52 |                    55.41 |        1.00 |
| P40        |            0 | llama 7B Q4_K_S   | pp512    |         850.65 |                   870.33 |        1.02 |
| P40        |            0 | llama 7B Q4_K_S   | tg128    |          54.23 |                    53.71 |        0.99 |
| P40        |            0 | llama 7B Q5_0     | pp512    |         858.55 |                   880.04 |        1.03 |
| P40        |            0 | llama 7B Q5_0     | tg128    |          48.30 |                    48.14 |        1.00 |"""
for line in r56.splitlines():
    r = row_cells(line)
    model, w, mnote = model_of(r[2])
    kind, cfg, metric = test_kind(r[3], None)
    cfg.update({"weights": w, "mainGpu": 0})
    gpu = r[0]
    cells.append(cell(f"lcpp-pr4766-{gpu.lower().replace(' ', '')}-7b-{r[2].split()[2].lower()}-{r[3]}", S4766,
                      f"turn 56 (JohannesGaessler), row '{gpu} | 0 | {r[2]} | {r[3]}', column 't/s sl/backend-sched'",
                      h56 + "\n" + line, E, gpu, 1, kind, num(r[5]), "tokens/s", metric, model=model, config=cfg,
                      engineVersion="PR #4766 branch sl/backend-sched (merged January 2024)",
                      note=f"Master column {num(r[4]):g} t/s (speedup {r[6]}). {mnote} P40 is not in models/gpus.json.",
                      unsure="a 'Main GPU' column implies a multi-GPU host (the author's RTX 3090 + P40s); whether the other GPUs took part is not stated in the excerpt"))
hgg = "| model                          |       size |     params | backend    | ngl | test       |              t/s |"
rgg = """| llama 7B F16                   |  12.55 GiB |     6.74 B | CUDA       |  99 | pp 512     | 11048.22 ± 269.74 |
| llama 7B F16                   |  12.55 GiB |     6.74 B | CUDA       |  99 | tg 128     |     61.03 ± 0.07 |
| llama 7B Q8_0                  |   6.67 GiB |     6.74 B | CUDA       |  99 | pp 512     | 7664.00 ± 108.83 |
| llama 7B Q8_0                  |   6.67 GiB |     6.74 B | CUDA       |  99 | tg 128     |     98.13 ± 0.07 |
| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 | pp 512     | 7979.85 ± 114.18 |"""
for line in rgg.splitlines():
    r = row_cells(line)
    q = r[0].split()[2]
    kind, cfg, metric = test_kind(r[5], None)
    cfg.update({"weights": WEIGHTS[q], "ngl": 99})
    cells.append(cell(f"lcpp-pr4766-gg-rtx4090-codellama7b-{q.lower()}-{r[5].replace(' ', '')}", S4766,
                      f"comment by ggerganov 2024-01-10 ('Repeating the tests'), llama-bench table, row '{r[0]} | {r[5]}'",
                      hgg + "\n" + line, E, "RTX 4090", 1, kind, num(r[6]), "tokens/s", metric,
                      arch=ARCH["codellama-7b"], config=cfg,
                      engineVersion="ggml-backend integration branch (PR #4766), 2024-01-10",
                      note="CUDA_VISIBLE_DEVICES=0 ./llama-bench on models/codellama-7b (F16, Q8_0, Q4_0 GGUF); device line "
                           "'NVIDIA GeForce RTX 4090, compute capability 8.9'. Architecture from codellama/CodeLlama-7b-hf config.json.",
                      unsure="whether the run is the PR branch or master is implied ('repeating the tests' on the PR), not stated in the row"))

S4812 = "lcpp-pr4812"
src(S4812, "llama.cpp PR #4812 'llama-bench : add no-kv-offload parameter' (merged), description",
    "slaren (llama.cpp maintainer), llama-bench output, build 32d9f7d9 (1786); first-party", url=GH + "4812")
hsl = "| model                          |       size |     params | backend    | ngl |          nkvo | test       |              t/s |"
for line in """| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |             0 | pp 512     | 4035.47 ± 157.68 |
| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |             0 | tg 128     |    127.43 ± 0.18 |""".splitlines():
    r = row_cells(line)
    kind, cfg, metric = test_kind(r[6], None)
    cfg.update({"weights": "q4_0", "ngl": 99, "kvOffload": True})
    cells.append(cell(f"lcpp-pr4812-rtx3090ti-7b-q4_0-{r[6].replace(' ', '')}", S4812,
                      f"description, llama-bench table, row '{r[0]} | nkvo 0 | {r[6]}'", hsl + "\n" + line, E,
                      "RTX 3090 Ti", 1, kind, num(r[7]), "tokens/s", metric, model="llama-7b", config=cfg,
                      engineVersion="build 32d9f7d9 (1786)",
                      note="Device line 'NVIDIA GeForce RTX 3090 Ti, compute capability 8.6'. nkvo 0 = KV cache on the GPU. " + LLAMA7B_NOTE))

S6766 = "lcpp-pr6766"
src(S6766, "llama.cpp PR #6766 'Introduction of CUDA Graphs to LLama.cpp' (merged), comment by JohannesGaessler 2024-04-19",
    "JohannesGaessler (llama.cpp CUDA maintainer) measuring master vs the PR with ./main; first-party", url=GH + "6766")
h67 = "| GPU         | Test      | t/s master | t/s PR | Speedup |"
for line in """| 1x RTX 3090 | ./main tg |     116.31 | 128.27 |    1.10 |
| 1x RTX 4090 | ./main tg |     138.31 | 146.81 |    1.06 |""".splitlines():
    r = row_cells(line)
    gpu = r[0][3:]
    cells.append(cell(f"lcpp-pr6766-{gpu.lower().replace(' ', '')}-llama2-7b-q4_0-main-tg", S6766,
                      f"comment 2024-04-19, row '{r[0]} | ./main tg', column 't/s master'", h67 + "\n" + line, E, gpu, 1,
                      "decode", num(r[2]), "tokens/s", "generated tokens/s of ./main at batch 1 (master, without CUDA graphs)",
                      model="llama-7b", config={"weights": "q4_0", "batch": 1, "cudaGraphs": False},
                      engineVersion="master of 2024-04-19",
                      note=f"LLaMA 2 7B q4_0. With the PR's CUDA graphs: {num(r[3]):g} t/s (speedup {r[4]}); the master column is "
                           "quoted because llama-bench was broken on the PR branch at the time.",
                      unsure="prompt and generation lengths of the ./main runs not stated"))

write("firstparty-llama-cpp", "llama.cpp first-party figures: the repository's benches/dgx-spark.md and llama-bench / "
      "compare-llama-bench tables posted by llama.cpp maintainers in pull requests (PR threads read from the stored "
      "issues corpus excerpts; each quote is the excerpt's row, with the table header where the excerpt shows it). "
      "For compare tables the PR-branch column is quoted (the master column is in the note). 'llama 8B' is LLaMA 3 8B "
      "(catalog llama-3.1-8b, same dimensions); 'llama 7B' is LLaMA (2) 7B.", sources, cells)
