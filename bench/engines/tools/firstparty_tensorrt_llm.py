"""TensorRT-LLM first-party figures: NVIDIA's own performance docs, one source per doc version.

- docs/source/performance.md, v0.5 / v0.6.1 / v0.8.0 / v0.9.0 (release tags; static batches measured with
  gptSessionBenchmark, plus batch-1 first-token latency tables);
- docs/source/performance/perf-overview.md, v0.10.0 to v1.0 (in-flight batching, all requests queued at
  once: gptManagerBenchmark, then trtllm-bench with TensorRT engines, then trtllm-bench on the PyTorch backend),
  with v0.14's Triton online-serving table;
- docs/source/developer-guide/perf-overview.md (later revisions: output tokens/s per GPU).

The rows are in firstparty_tensorrt_llm_tables.py, verbatim. Writes cells-firstparty-tensorrt-llm.json
(v0.5-v0.9), cells-firstparty-tensorrt-llm-ifb.json (v0.10-v0.17) and cells-firstparty-tensorrt-llm-pytorch.json
(v0.20 onwards).
"""
import re

from fp_common import cell, num, row_cells, with_tool, write
from firstparty_tensorrt_llm_tables import TABLES

E = "tensorrt-llm"
REPO = "NVIDIA/TensorRT-LLM"
P_OLD = "docs/source/performance.md"
P_PO = "docs/source/performance/perf-overview.md"
P_DG = "docs/source/developer-guide/perf-overview.md"
WHO_TEAM = "NVIDIA's TensorRT-LLM team measuring its own engine in the project's own documentation (first-party)."

# ---------------------------------------------------------------------------------------------------------
# Architectures (family gpt|llama; ffn is the per-expert width for MoE). Where each was read is in ARCH_NOTE.
ARCH = {
    "gpt-j-6b": {"family": "gpt", "layers": 28, "hidden": 4096, "heads": 16, "kvHeads": 16, "ffn": 16384,
                 "vocab": 50400, "context": 2048},
    "llama-2-70b": {"family": "llama", "layers": 80, "hidden": 8192, "heads": 64, "kvHeads": 8, "ffn": 28672,
                    "vocab": 32000, "context": 4096},
    "falcon-180b": {"family": "gpt", "layers": 80, "hidden": 14848, "heads": 232, "kvHeads": 8, "ffn": 59392,
                    "vocab": 65024, "context": 2048},
    "llama-3.1-405b": {"family": "llama", "layers": 126, "hidden": 16384, "heads": 128, "kvHeads": 8,
                       "ffn": 53248, "vocab": 128256, "context": 131072},
    "mixtral-8x22b": {"family": "llama", "layers": 56, "hidden": 6144, "heads": 48, "kvHeads": 8, "ffn": 16384,
                      "vocab": 32768, "context": 65536, "experts": 8, "topK": 2},
    "llama-4-scout": {"family": "llama", "layers": 48, "hidden": 5120, "heads": 40, "kvHeads": 8, "ffn": 8192,
                      "vocab": 202048, "context": 10485760, "experts": 16, "topK": 1},
    "llama-4-maverick": {"family": "llama", "layers": 48, "hidden": 5120, "heads": 40, "kvHeads": 8,
                         "ffn": 8192, "vocab": 202048, "context": 1048576, "experts": 128, "topK": 1},
    "qwen3-235b-a22b": {"family": "llama", "layers": 94, "hidden": 4096, "heads": 64, "kvHeads": 4, "ffn": 1536,
                        "vocab": 151936, "context": 40960, "experts": 128, "topK": 8},
    "qwen3-30b-a3b": {"family": "llama", "layers": 48, "hidden": 2048, "heads": 32, "kvHeads": 4, "ffn": 768,
                      "vocab": 151936, "context": 40960, "experts": 128, "topK": 8},
    "deepseek-r1": {"family": "llama", "layers": 61, "hidden": 7168, "heads": 128, "kvHeads": 128, "ffn": 2048,
                    "vocab": 129280, "context": 163840, "experts": 256, "topK": 8},
    "gpt-oss-120b": {"family": "llama", "layers": 36, "hidden": 2880, "heads": 64, "kvHeads": 8, "ffn": 2880,
                     "vocab": 201088, "context": 131072, "experts": 128, "topK": 4},
    "gpt-oss-20b": {"family": "llama", "layers": 24, "hidden": 2880, "heads": 64, "kvHeads": 8, "ffn": 2880,
                    "vocab": 201088, "context": 131072, "experts": 32, "topK": 4},
}
ARCH_NOTE = {
    "gpt-j-6b": "GPT-J 6B (EleutherAI/gpt-j-6b): layers 28, heads 16, hidden 4096, vocab 50400, 2048 positions, rotary_dim 64 "
                "as in these docs' engine configs from v0.6.1 on (GPTJForCausalLM); ffn 16384 = 4 x hidden (config.json n_inner null); "
                "parallel attention + GELU MLP, hence family 'gpt'.",
    "llama-2-70b": "Llama 2 70B (meta-llama/Llama-2-70b-hf): layers 80, heads 64, kv heads 8, hidden 8192, ffn 28672, "
                   "vocab 32000, 4096 positions, as in these docs' engine configs from v0.6.1 on.",
    "falcon-180b": "Falcon 180B (tiiuae/falcon-180B): layers 80, heads 232, kv heads 8, hidden 14848, vocab 65024, 2048 "
                   "positions, parallel attention, GELU, no bias, as in these docs' engine configs from v0.6.1 on; "
                   "ffn 59392 = 4 x hidden (Falcon's MLP); family 'gpt' (non-gated MLP).",
    "llama-3.1-405b": "Llama 3.1 405B; architecture from meta-llama/Llama-3.1-405B config.json.",
    "mixtral-8x22b": "Mixtral 8x22B; architecture from mistralai/Mixtral-8x22B-v0.1 config.json (as in this repository's "
                     "test/helpers/hf-configs.ts).",
    "llama-4-scout": "Llama 4 Scout (17B active, 16 experts, 1 routed + 1 shared expert per token in every layer; dense "
                     "intermediate_size_mlp 16384); from meta-llama/Llama-4-Scout-17B-16E config.json (text_config).",
    "llama-4-maverick": "Llama 4 Maverick (17B active, 128 experts, 1 routed + 1 shared expert per token; MoE on every other "
                        "layer (interleave_moe_layer_step 2), dense layers 16384 wide); text_config as in TensorRT-LLM's own "
                        "unit test LLAMA_4_MAVERICK_TWO_LAYER_CONFIG (48 layers in the full model).",
    "qwen3-235b-a22b": "Qwen3-235B-A22B; from Qwen/Qwen3-235B-A22B config.json (94 layers, 128 experts of 1536, 8 per "
                       "token, head_dim 128 so q width 8192 > hidden 4096).",
    "qwen3-30b-a3b": "Qwen3-30B-A3B; from Qwen/Qwen3-30B-A3B config.json (as in this repository's test/helpers/hf-configs.ts; "
                     "head_dim 128).",
    "deepseek-r1": "DeepSeek-R1-0528 (DeepSeek-V3 architecture: MLA attention with kv_lora_rank 512, 3 dense layers of "
                   "18432, 256 routed experts of 2048 + 1 shared, 8 per token); from deepseek-ai/DeepSeek-V3 config.json as "
                   "in this repository's test/helpers/hf-configs.ts. The schema's fields do not describe MLA.",
    "gpt-oss-120b": "gpt-oss-120b (openai/gpt-oss-120b config.json: 36 layers, hidden 2880, 64 heads of 64, 8 kv heads, 128 "
                    "experts of 2880, 4 per token, alternate 128-token sliding-window layers, attention sinks; MoE weights "
                    "MXFP4 in the released checkpoint).",
    "gpt-oss-20b": "gpt-oss-20b (openai/gpt-oss-20b config.json: 24 layers, hidden 2880, 64 heads of 64, 8 kv heads, 32 "
                   "experts of 2880, 4 per token, alternate sliding-window layers; MoE weights MXFP4 in the released checkpoint).",
}

# doc label -> (slug, catalog model or None, arch key or None, note)
MODELS = {
    "gpt-j 6b": ("gpt-j-6b", None, "gpt-j-6b", None),
    "gptj 6b": ("gpt-j-6b", None, "gpt-j-6b", None),
    "llama 7b": ("llama2-7b", "llama-7b", None, "LLaMA 7B is Llama 2 7B (the engine configs of these docs from v0.6.1 on: Llama2-7b, n_layer 32, n_embd 4096, inter_size 11008)."),
    "llama v2 7b": ("llama2-7b", "llama-7b", None, "Llama 2 7B (meta-llama/Llama-2-7b-hf)."),
    "llama 70b": ("llama2-70b", None, "llama-2-70b", "LLaMA 70B is Llama 2 70B (the engine configs of these docs from v0.6.1 on)."),
    "llama v2 70b": ("llama2-70b", None, "llama-2-70b", None),
    "falcon 180b": ("falcon-180b", None, "falcon-180b", None),
    "mistral 7b": ("mistral-7b", "mistral-7b", None, "Mistral 7B (mistralai/Mistral-7B-v0.1)."),
    "mixtral 8x7b": ("mixtral-8x7b", "mixtral-8x7b", None, "Mixtral 8x7B (mistralai/Mixtral-8x7B-v0.1)."),
    "llama v3 8b": ("llama3-8b", "llama-3.1-8b", None,
                    "Llama 3 8B (meta-llama/Meta-Llama-3-8B): the catalog llama-3.1-8b's dimensions, context 8192 instead of 131072."),
    "llama v3.1 8b": ("llama3.1-8b", "llama-3.1-8b", None, None),
    "llama 3.1 8b": ("llama3.1-8b", "llama-3.1-8b", None, None),
    "llama v3 70b": ("llama3-70b", "llama-3.1-70b", None,
                     "Llama 3 70B (meta-llama/Meta-Llama-3-70B): the catalog llama-3.1-70b's dimensions, context 8192 instead of 131072."),
    "llama v3.1 70b": ("llama3.1-70b", "llama-3.1-70b", None, None),
    "llama 3.1 70b": ("llama3.1-70b", "llama-3.1-70b", None, None),
    "llama 3.3 70b": ("llama3.3-70b", "llama-3.1-70b", None, "Llama 3.3 70B has the Llama 3.1 70B architecture (catalog llama-3.1-70b)."),
    "llama v3.3 70b": ("llama3.3-70b", "llama-3.1-70b", None, "Llama 3.3 70B has the Llama 3.1 70B architecture (catalog llama-3.1-70b)."),
    "llama v3.1 405b": ("llama3.1-405b", None, "llama-3.1-405b", None),
    "llama 3.1 405b": ("llama3.1-405b", None, "llama-3.1-405b", None),
    "mixtral 8x22b": ("mixtral-8x22b", None, "mixtral-8x22b", None),
    "llama 4 scout": ("llama4-scout", None, "llama-4-scout", None),
    "llama 4 maverick": ("llama4-maverick", None, "llama-4-maverick", None),
    "llama v4 maverick": ("llama4-maverick", None, "llama-4-maverick", None),
    "qwen3-235b-a22b": ("qwen3-235b-a22b", None, "qwen3-235b-a22b", None),
    "qwen3 235b a22b": ("qwen3-235b-a22b", None, "qwen3-235b-a22b", None),
    "qwen3-30b-a3b": ("qwen3-30b-a3b", None, "qwen3-30b-a3b", None),
    "qwen3 30b a3b": ("qwen3-30b-a3b", None, "qwen3-30b-a3b", None),
    "deepseek r1": ("deepseek-r1", None, "deepseek-r1", "DeepSeek-R1-0528 per the doc's model list (nvidia/DeepSeek-R1-0528-FP4)."),
    "deepseek r1 0528": ("deepseek-r1", None, "deepseek-r1", None),
    "gpt-oss 120b": ("gpt-oss-120b", None, "gpt-oss-120b", None),
    "gpt-oss 20b": ("gpt-oss-20b", None, "gpt-oss-20b", None),
}


def model_of(label):
    key = re.sub(r"\s+(fp4|fp8)$", "", label.strip().lower())
    key = re.sub(r"\s+-\s+rtx.*$", "", key)
    slug, model, arch, mnote = MODELS[key]
    notes = [n for n in (mnote, ARCH_NOTE.get(arch)) if n]
    kw = {"model": model} if model else {"arch": dict(ARCH[arch])}
    return slug, kw, " ".join(notes)


# GPU as written in the docs -> (catalog name or as written, id slug, note)
def gpu_of(label):
    s = label.replace("**", "").replace("*", "").strip()
    table = [
        (r"^H100(-HBM3-80GB)?$|^H100 80GB HBM3$", ("H100 SXM5", "h100", None)),
        (r"^H200$|^H200 141GB HBM3$", ("H200 SXM", "h200", None)),
        (r"^H200 131GB HBM3$", ("H200 SXM", "h200", "GPU written 'H200 131GB HBM3' in this table (the H200 SXM has 141 GB)")),
        (r"^A100-SXM4-80GB$", ("A100 SXM4 80GB", "a100", None)),
        (r"^A100-PCIE-80GB$", ("A100 PCIe 80GB", "a100pcie", None)),
        (r"^L40S$", ("L40S", "l40s", None)),
        (r"^GH200", (s, "gh200", "GH200 is not in models/gpus.json: kept as the doc writes it")),
        (r"^B200$", ("B200", "b200", None)),
        (r"^GB200$", ("GB200", "gb200", None)),
        (r"^B300 \(beta\)$", ("B300", "b300", "B300 is not in models/gpus.json: kept as written (B300 288GB, DGX B300)")),
        (r"^GB300 \(beta\)$", ("GB300", "gb300", "GB300 is not in models/gpus.json: kept as written (GB300 288 GB, GB300 NVL72)")),
    ]
    for rx, v in table:
        if re.search(rx, s):
            return v
    raise KeyError(label)


RTX = ("RTX 6000 Pro Blackwell Server Edition", "rtx6000se",
       "RTX 6000 Pro Blackwell Server Edition: not the catalog's RTX PRO 6000 Blackwell Workstation Edition; kept as written")

# numbers of requests the docs list per ISL/OSL
NREQ_V011 = {(128, 128): 30000, (128, 2048): 3000, (128, 4096): 1500, (2048, 128): 3000, (2048, 2048): 1500,
             (5000, 500): 1500, (1000, 1000): 3000, (500, 2000): 3000, (20000, 2000): 1000, (1000, 2000): 1500}
NREQ_PERGPU = {(1024, 1024): 3000, (8192, 1024): 1500, (1024, 8192): 1500, (32768, 1024): 1000, (1024, 32768): 1000,
               (100000, 1024): 300}

ALL = {"static": [], "ifb": [], "pt": []}
SOURCES = {"static": [], "ifb": [], "pt": []}


def fid(*parts):
    return "-".join(str(p) for p in parts if p not in (None, "")).lower().replace(" ", "")


# The tool behind each stated benchmark (bench/engines/bench-tools.ts): gptSessionBenchmark, gptManagerBenchmark and
# trtllm-bench feed the engine token ids. The online-serving table names no client (ensemble text or token ids to
# the tensorrt_llm model), so those cells name no tool.
TOOLS = ("gptSessionBenchmark", "gptManagerBenchmark", "trtllm-bench")


def add(group, c):
    bench = c["config"].get("benchmark", "")
    tool = next((t for t in TOOLS if bench.startswith(t)), None)
    ALL[group].append(with_tool(c, tool) if tool else c)


def blocks(key):
    """(heading, [rows]) for each '#' heading of a table text."""
    out, head = [], None
    for line in TABLES[key].splitlines():
        if line.startswith("#"):
            head = line.lstrip("#").strip()
            out.append((head, []))
        elif out:
            out[-1][1].append(line)
        else:
            out.append((None, [line]))
    return out


# =========================================================================================================
# 1. Static-batch era: docs/source/performance.md v0.5 - v0.9 (release tags)
STATIC = [
    ("v0.5", "trtllm-perf-v0.5", "0.5", "ffd5af342a817a2689d38e4af2cc59ded877e339",
     "TensorRT-LLM docs/source/performance.md at tag v0.5.0 ('High Throughput' at batch 64 or less and 'Low Latency' "
     "first-token tables; H100 FP8, L40S FP8, A100 FP16)",
     "tokens/s", "output tokens/s, whole system (static batch: batch x output length / the batch's latency)",
     "Tag v0.5.0 (2023-10-19). 'The different performance numbers below were collected using the methodology described in "
     "the benchmarks folder', i.e. benchmarks/cpp gptSessionBenchmark: a static batch of identical requests (fixed input "
     "and output length) whose generate() latency is reported; 'The below tables provide reference data at large batch "
     "sizes, representating high throughput tasks' / 'at batch size 1 for first token latency'. The column reads "
     "'Throughput (out tok/s)': the whole system's output tokens/s (per GPU cannot be: LLaMA 70B TP4 at batch 64 would "
     "then need less time per step than reading the weights once; later revisions label the per-GPU figures "
     "'/GPU'). Engine flags are not given in this version."),
    ("v0.6.1", "trtllm-perf-v0.6.1", "0.6.1", "59f41c067d54838777351b143602ca1c4cad2fdc",
     "TensorRT-LLM docs/source/performance.md at tag v0.7.0, 'Peak Throughput' tables 'updated for v0.6.1' (H100 FP8, "
     "A100 FP16; the L40S and first-token tables there are the v0.5 data and are taken from the v0.5 source)",
     "tokens/s/gpu", "output tokens/s per GPU (static batch: batch x output length / the batch's latency / TP)",
     "Tag v0.7.0 (2023-12-20; the v0.6.1 tag itself still carries the v0.5 tables; these rows appeared on main in "
     "e093e484, 2023-12-04). 'This data has been updated for v0.6.1, unless specified.' Method: gptSessionBenchmark "
     "(--warm_up 1 --num_runs 5 --duration 0; static batch, all sequences with the stated input and output length); "
     "engines built with --enable_context_fmha, gpt_attention_plugin float16, --enable_fp8 --fp8_kv_cache on H100 "
     "('To run the benchmarks below on A100, you will need to remove the --enable_fp8 --fp8_kv_cache options'), LLaMA "
     "with --remove_input_padding; 'benchmark each model on an H100-HBM3-80GB system'. The H100 column reads 'Throughput "
     "(out tok/s/GPU)'; the A100 column reads 'Throughput (out tok/s)' here and was relabelled 'out tok/s/GPU' in "
     "d879430b (2024-01-09) with the numbers unchanged, so both are per GPU."),
    ("v0.8.0", "trtllm-perf-v0.8.0", "0.8.0", "5955b8afbad2ddcc3156202b16c567e94c52248f",
     "TensorRT-LLM docs/source/performance.md at tag v0.8.0 ('Peak Throughput' and 'Low Latency' tables; H200, H100, "
     "L40S FP8 and A100 FP16)",
     "tokens/s/gpu", "output tokens/s per GPU (static batch: batch x output length / the batch's latency / TP)",
     "Tag v0.8.0 (2024-02-29). 'All data was generated using version 0.8.0'. gptSessionBenchmark (--warm_up 1 --num_runs 5 "
     "--duration 0), static batches of identical requests; engines from a checkpoint config with quant_algo FP8 and "
     "kv_cache_quant_algo FP8 (removed on A100), context_fmha, gpt_attention_plugin, remove_input_padding, "
     "--strongly_typed; TRTLLM_ENABLE_XQA=1 for LLaMA 70B and Falcon 180B; Falcon 180B built per configuration with a "
     "paged KV cache. Column 'Throughput (out tok/s/GPU)'; first-token tables 'at batch size 1' (run with output length 1)."),
    ("v0.9.0", "trtllm-perf-v0.9.0", "0.9.0", "250d9c293d5edbc2a45c20775b3150b1eb68b364",
     "TensorRT-LLM docs/source/performance.md at tag v0.9.0 ('Peak Throughput' and 'Low Latency' tables; H200, H100, "
     "L40S FP8 and A100 FP16)",
     "tokens/s/gpu", "output tokens/s per GPU (static batch: batch x output length / the batch's latency / TP)",
     "Tag v0.9.0 (2024-04-12). 'All data was generated using version 0.9.0'. gptSessionBenchmark (--warm_up 1 --num_runs 5 "
     "--duration 0; its tokensPerSec = batch_size x output_len / average latency), static batches of identical requests; "
     "engines from checkpoint configs with quant_algo FP8 and kv_cache_quant_algo FP8 ('undefine or remove' them on A100), "
     "context_fmha, gpt_attention_plugin, --strongly_typed, no paged KV cache except Falcon 180B; GQA XQA kernels enabled "
     "'where our tests displayed performance benefits'. Column 'Throughput (out tok/s/GPU)'. The Mixtral 8x7B rows were "
     "removed from the doc on 2024-04-24 (66ef1df, after its move to performance/perf-overview.md) without a stated reason."),
]


def parse_static(key, src, version, unit, metric, label):
    skip_v05_data = key == "v0.6.1"
    section = None
    for head, rows in blocks(key):
        if head is None:
            continue
        if "Throughput" in head and head.startswith(("High", "Peak")):
            section = "tput"
            continue
        if head.startswith("Low Latency"):
            section = "ttft"
            continue
        m = re.match(r"(\w+) GPUs \((FP8|FP16)\)", head)
        if not m:
            continue
        gname, dtype = m.group(1), m.group(2).lower()
        if skip_v05_data and (section == "ttft" or gname == "L40S"):
            continue  # marked in the doc as v0.5 data: taken from the v0.5 source
        gpu, gslug, gnote = {"H100": ("H100 SXM5", "h100", None), "H200": ("H200 SXM", "h200", None),
                             "L40S": ("L40S", "l40s", None),
                             "A100": ("A100 SXM4 80GB", "a100", None)}[gname]
        header = rows[0]
        for row in rows[1:]:
            r = row_cells(row)
            if not r[0]:
                continue
            slug, mkw, mnote = model_of(r[0])
            batch, tp = int(r[1]), int(r[2])
            cfg = {"weights": dtype}
            if version != "0.5":  # v0.6.1+: --enable_fp8 --fp8_kv_cache / kv_cache_quant_algo FP8, removed on A100
                cfg["kvCache"] = dtype
            cfg.update({"tp": tp, "batch": batch, "inflightBatching": False,
                        "benchmark": "gptSessionBenchmark (static batch)"})
            unsure = None
            if gname == "A100":
                unsure = "The doc names the GPU only 'A100 GPUs'; the 80 GB SXM4 part (the catalog's A100 SXM4 80GB) is assumed."
            if version == "0.9.0" and slug == "mixtral-8x7b":
                unsure = ("Removed from the doc on 2024-04-24 (66ef1df) without a stated reason." +
                          (" " + unsure if unsure else ""))
            if section == "tput":
                isl, osl = int(r[3]), int(r[4])
                cfg.update({"promptTokens": isl, "outputTokens": osl})
                value = num(r[5])
                c = cell(fid(f"trtllm-{label}", f"{gslug}x{tp}", f"tp{tp}", slug, dtype, isl, osl, f"b{batch}"), src,
                         f"section '{head}' (throughput), row '{r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]}'",
                         header + "\n" + row, E, gpu, tp, "throughput", value, unit, metric, engineVersion=version,
                         note=" ".join(x for x in (mnote, gnote) if x) or None, unsure=unsure, config=cfg, **mkw)
            else:
                isl = int(r[3])
                cfg.update({"promptTokens": isl, "outputTokens": 1})
                value = num(r[4])
                c = cell(fid(f"trtllm-{label}", f"{gslug}x{tp}", f"tp{tp}", slug, dtype, "ttft", isl), src,
                         f"section 'Low Latency / {head}', row '{r[0]} | {r[1]} | {r[2]} | {r[3]}'",
                         header + "\n" + row, E, gpu, tp, "ttft", value, "ms",
                         "first-token latency at batch 1 (a generate() with 1 output token)",
                         engineVersion=version, note=" ".join(x for x in (mnote, gnote) if x) or None, unsure=unsure,
                         config=cfg, **mkw)
            add("static", c)


for key, src, version, commit, title, unit, metric, who in STATIC:
    SOURCES["static"].append({"id": src, "set": "calibration", "engine": E, "title": title, "repo": REPO,
                              "path": P_OLD, "commit": commit, "who": who + " " + WHO_TEAM})
    parse_static(key, src, version, unit, metric, key)

# =========================================================================================================
# 2. In-flight-batching era with TensorRT engines: perf-overview.md v0.10 - v0.17
IFB_METRIC = "output tokens/s, whole system (all requests queued at once)"
TAGNOTE = ("Commit: the v{v} release commit (the tensorrt_llm submodule of triton-inference-server/tensorrtllm_backend "
           "at tag v{v}); the text was read from the code index's stored copy of the file (file id {fid}, the version "
           "whose table says it was 'generated using version {v}'), whose own commit the index does not name.")

IFB = {
    "v0.10.0": dict(
        src="trtllm-perf-v0.10.0", version="0.10.0", commit="9bd15f1937f52658fb116f30d58fea786ce5d03b", fileid="5853938931",
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.10.0 'Throughput Measurements' (gptManagerBenchmark, "
              "in-flight batching; H200, H100 FP8/FP16, A100 SXM4 FP16, L40S FP8/FP16)",
        who="'As of TensorRT-LLM v0.10, these performance benchmarks have changed methodology to utilize in-flight batching and "
            "no longer utilize static benchmarking.' 'The below table shows performance data where a local inference client is "
            "fed requests at an infinite rate (no delay between messages), and shows the throughput client-server scenario under "
            "maximum load.' 'All data in the table below was generated using version 0.10.0 and presents token throughput in "
            "tokens/second.' Build: trtllm-build --strongly_typed --max_batch_size 2048 --max_input_len 2048 --max_seq_len 6144 "
            "--max_num_tokens 2048 --use_paged_context_fmha enable --multiple_profiles enable (paged KV cache, in-flight "
            "batching), FP8 weights and FP8 KV cache by checkpoint config (quantization removed on A100 and the FP16 columns). "
            "Dataset: prepare_dataset.py token-norm-dist --num-requests=2000, input and output stdev 0. Run: "
            "gptManagerBenchmark --type IFB --scheduler_policy max_utilization --kv_cache_free_gpu_mem_fraction 0.9 "
            "--request_rate -1.0 --enable_chunked_context --streaming. The figure is the whole system's (it grows with TP).",
        cfg={"maxBatchSize": 2048, "maxNumTokens": 2048, "kvCacheFraction": 0.9, "scheduler": "max_utilization",
             "chunkedContext": True, "benchmark": "gptManagerBenchmark (IFB)"},
        nreq=lambda isl, osl: 2000),
    "v0.11.0": dict(
        src="trtllm-perf-v0.11.0", version="0.11.0", commit="05316d3313360012536ace46c781518f5afae75e", fileid="3247412510",
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.11.0 'Throughput Measurements' (gptManagerBenchmark, "
              "in-flight batching; H200, GH200, H100 FP8/FP16, A100 SXM4 FP16, L40S FP8)",
        who="'The below table shows performance data where a local inference client is fed requests at an infinite rate (no "
            "delay between messages), and shows the throughput client-server scenario under maximum load.' 'All data in the "
            "table below was generated using version 0.11.0 and presents token throughput in tokens/second.' Build: "
            "trtllm-build --use_fused_mlp --gpt_attention_plugin float16 --max_batch_size $max_batch_size --max_input_len 2048 "
            "--max_output_len 2048 --reduce_fusion disable --max_num_tokens $max_num_tokens --use_paged_context_fmha enable "
            "--multiple_profiles enable, with per-model/TP max_batch_size and max_num_tokens listed in the doc; FP8 weights "
            "and KV cache by config (removed on A100 and the FP16 column). Requests per ISL/OSL: 30000 (128/128), 3000 "
            "(128/2048, 2048/128), 1500 (2048/2048), stdev 0. Run: gptManagerBenchmark --type IFB --eos_id -1 "
            "--scheduler_policy guaranteed_no_evict --kv_cache_free_gpu_mem_fraction 0.99 (0.95 on GH200) --request_rate -1.0 "
            "--enable_chunked_context. Whole-system figures.",
        cfg={"kvCacheFraction": 0.99, "scheduler": "guaranteed_no_evict", "chunkedContext": True,
             "benchmark": "gptManagerBenchmark (IFB)"},
        nreq=lambda isl, osl: NREQ_V011.get((isl, osl))),
    "v0.12.0": dict(
        src="trtllm-perf-v0.12.0", version="0.12.0", commit="28fb9aacaa5a05494635194a9cbb264da9a744bd", fileid="2499968698",
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.12.0 'Throughput Measurements' (trtllm-bench, "
              "in-flight batching; H200, GH200, H100 FP8/Mixed, A100 SXM4 Mixed, L40S FP8)",
        who="'...a local inference client is fed requests at an infinite rate (no delay between messages), and shows the "
            "throughput client-server scenario under maximum load.' 'All data in the table below was generated using version "
            "0.12.0 and presents token throughput in tokens/second.' Build: trtllm-bench build --tp_size $tp_size "
            "--quantization FP8 --dataset $dataset_file ('If you specify FP8 quantization, the KV cache will automatically be "
            "set to FP8 as well'; 'to build an FP16 engine without any quantization, simply remove --quantization FP8': the "
            "'Mixed' columns). Run: trtllm-bench throughput, 'an offline maximum throughput scenario such that all requests "
            "are queued in rapid succession'; its 'Token Throughput (tokens/sec)' is output tokens / total time (the doc's "
            "example: 3000 requests x 128 output tokens / 16.41 s = 23406). Requests per ISL/OSL: 30000, 3000, 1500, 3000, "
            "1500 for 128/128, 128/2048, 128/4096, 2048/128, 2048/2048; stdev 0. Whole-system figures.",
        cfg={"benchmark": "trtllm-bench throughput (TensorRT engine)"},
        nreq=lambda isl, osl: NREQ_V011.get((isl, osl))),
    "v0.13.0": dict(
        src="trtllm-perf-v0.13.0", version="0.13.0", commit="201135e58aa525af7e523d091d4c9584229524bc", fileid="5856956924",
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.13.0 'Throughput Measurements' (trtllm-bench, "
              "in-flight batching; H200, GH200, H100 FP8/FP16, A100 SXM4 FP16, L40S FP8)",
        who="As v0.12.0: 'All data in the table below was generated using version 0.13.0 and presents token throughput in "
            "tokens/second.' trtllm-bench build --quantization FP8 (FP8 KV cache with it) or no quantization (FP16 columns), "
            "trtllm-bench throughput with all requests queued at once; 'Token Throughput (tokens/sec)' = output tokens / "
            "total time. Requests per ISL/OSL: 30000 (128/128), 3000 (128/2048, 2048/128, 1000/1000, 500/2000), 1500 "
            "(128/4096, 2048/2048, 5000/500), 1000 (20000/2000); stdev 0. Whole-system figures.",
        cfg={"benchmark": "trtllm-bench throughput (TensorRT engine)"},
        nreq=lambda isl, osl: NREQ_V011.get((isl, osl))),
    "v0.14.0": dict(
        src="trtllm-perf-v0.14.0", version="0.14.0", commit="b0880169d0fb8cd0363049d91aa548e58a41be07", fileid="5710131192",
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.14.0 'Throughput Measurements' (trtllm-bench; H200, "
              "H100 FP8/FP16, A100 SXM4 and PCIe FP16, L40S FP8) and 'Online Serving Measurements' (Triton tensorrtllm_backend)",
        who="Throughput: as v0.13.0 ('All data in the table below was generated using version 0.14.0 and presents token "
            "throughput in tokens/second'; trtllm-bench build --quantization FP8 or none, trtllm-bench throughput, all requests "
            "queued at once; output tokens / total time; requests per ISL/OSL as listed, stdev 0; whole system). Online "
            "serving: 'The TensorRT-LLM backend is used to measure the performance of TensorRT-LLM for online serving. The "
            "below table shows the throughput and latency under a serving scenario. All data in the table below was generated "
            "using version 0.14.0, with 500 requests and BF16 precision.' Columns QPS (the request rate, INF = all at once), "
            "Tput(req/s), Mean TTFT(ms), Mean ITL(ms), Total Token Tput, Output Tput (tok/s).",
        cfg={"benchmark": "trtllm-bench throughput (TensorRT engine)"},
        nreq=lambda isl, osl: NREQ_V011.get((isl, osl))),
    "v0.15.0": dict(
        src="trtllm-perf-v0.15.0", version="0.15.0", commit="8f91cff22e7cc1feeb61f6edb58cd3bc91333fde", fileid="5939417815",
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.15.0 'Throughput Measurements' (trtllm-bench; H100 "
              "FP8/Mixed, A100 SXM4 and PCIe Mixed, L40S FP8; GH200 with gptManagerBenchmark)",
        who="'All data in the table below was generated using version 0.15.0 and presents token throughput in tokens/second.' "
            "trtllm-bench build --tp_size --pp_size --quantization FP8 --dataset (it 'uses high-level statistics of the dataset "
            "... and tuning heuristics to optimize engine build settings'), FP8 KV cache with FP8; 'Mixed' = no quantization. "
            "trtllm-bench throughput, all requests queued at once, 'In majority of cases, we also use a higher KV cache "
            "percentage by setting --kv_cache_free_gpu_mem_fraction 0.95 ... We fall back to 0.90 if we hit an out of memory "
            "issue.' 'Note that for GH200 tests, TRT-LLM engines were built using trtllm-bench build but benchmarked with "
            "gptManagerBenchmark' (--type IFB --api executor --scheduler_policy guaranteed_no_evict "
            "--kv_cache_free_gpu_mem_fraction 0.95 --request_rate -1.0 --enable_chunked_context). Requests per ISL/OSL as "
            "listed, stdev 0. Whole-system output tokens/s. (The online-serving table repeated here is v0.14.0 data: taken "
            "from the v0.14.0 source only.)",
        cfg={"benchmark": "trtllm-bench throughput (TensorRT engine)"},
        nreq=lambda isl, osl: NREQ_V011.get((isl, osl))),
    "v0.17": dict(
        src="trtllm-perf-v0.17", version="0.17", commit="258c7540c03517def55d9a5aadfa9288af474e1b", fileid=None,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.17 'Throughput Measurements' (trtllm-bench; H200, "
              "H100, L40S FP8, A100 SXM4 FP16; GH200 with gptManagerBenchmark)",
        who="'All data in the table below was generated using version 0.17 and presents token throughput in tokens/second.' As "
            "v0.15.0: trtllm-bench build --quantization FP8 --dataset (tuning heuristics for max_batch_size/max_num_tokens), "
            "FP8 KV cache with FP8; trtllm-bench throughput with all requests queued at once, KV cache fraction 0.95 in most "
            "cases (0.90 on OOM); 'For release v0.17, on GH200 systems, we recommend using the legacy flow based on "
            "gptManagerBenchmark'. Requests per ISL/OSL as listed, stdev 0. Whole-system output tokens/s. (The online-serving "
            "table repeated here is v0.14.0 data: taken from the v0.14.0 source only.)",
        cfg={"benchmark": "trtllm-bench throughput (TensorRT engine)"},
        nreq=lambda isl, osl: NREQ_V011.get((isl, osl))),
}
V011_LIMITS = {  # (model slug, tp) -> (max_num_tokens, max_batch_size), 'General' rows of the v0.11.0 doc
    ("gpt-j-6b", 1): (2048, 128), ("falcon-180b", 4): (8192, 4096), ("falcon-180b", 8): (8192, 2048),
    ("llama2-7b", 1): (8192, 4096), ("llama2-70b", 2): (2048, 2048), ("llama2-70b", 4): (8192, 4096),
    ("llama2-70b", 8): (16384, 8192), ("llama3-8b", 1): (8192, 2048), ("llama3-70b", 4): (1024, 2048),
    ("llama3-70b", 8): (16384, 8192), ("mixtral-8x7b", 2): (3072, 2048), ("mixtral-8x7b", 4): (8192, 8192),
    ("mistral-7b", 1): (8192, 4098),
}
IFB_UNSURE = {
    ("v0.10.0", "gpt-j-6b", "H100 SXM5", "fp8", 128, 2048, 1):
        "54939.48 is 6x the H200's 9039.72 in the same row and 7x v0.11.0's H100 FP8 figure (7643.02): likely a typo.",
    ("v0.11.0", "gpt-j-6b", "L40S", "fp8", 2048, 128, 1):
        "83.46 is a ninth of v0.10.0's 747.43 and v0.12.0's 741.06 for the same L40S cell: likely a typo.",
}


def dtype_of(p):
    p = p.replace("*", "").strip().lower()
    return {"fp8": "fp8", "fp16": "fp16", "mixed": "fp16"}[p]


def ifb_cfg(key, meta, slug, tp, dtype, isl, osl, gpu):
    cfg = {"weights": dtype}
    if dtype == "fp8":
        cfg["kvCache"] = "fp8"
    elif key in ("v0.10.0", "v0.11.0"):
        cfg["kvCache"] = "fp16"  # 'undefine or remove' quant_algo and kv_cache_quant_algo
    cfg.update({"tp": tp, "promptTokens": isl, "outputTokens": osl, "inflightBatching": True})
    n = meta["nreq"](isl, osl)
    if n:
        cfg["numPrompts"] = n
    cfg.update(meta["cfg"])
    if key == "v0.11.0":
        lim = V011_LIMITS.get((slug, tp))
        if slug == "gpt-j-6b" and (isl, osl) == (128, 128):
            lim = (2048, 2048)
        if lim:
            cfg["maxNumTokens"], cfg["maxBatchSize"] = lim
        if gpu.startswith("GH200"):
            cfg["kvCacheFraction"] = 0.95
    if key in ("v0.15.0", "v0.17"):
        if gpu.startswith("GH200"):
            cfg.update({"benchmark": "gptManagerBenchmark (IFB, executor API)", "kvCacheFraction": 0.95,
                        "scheduler": "guaranteed_no_evict", "chunkedContext": True})
        else:
            cfg["kvCacheFraction"] = 0.95
    return cfg


def ifb_cell(key, meta, label_model, gpu_label, prec, tp, isl, osl, raw, where, quote, gpus_override=None):
    if raw is None or raw.strip() == "":
        return
    value = num(raw)
    slug, mkw, mnote = model_of(label_model)
    gpu, gslug, gnote = gpu_of(gpu_label)
    dtype = dtype_of(prec)
    cfg = ifb_cfg(key, meta, slug, tp, dtype, isl, osl, gpu)
    notes = [mnote, gnote]
    if prec.replace("*", "").strip().lower() == "mixed":
        notes.append("Precision written 'Mixed': the doc's FP16 build without --quantization.")
    if gpu.startswith("GH200") and tp > 1:
        notes.append(f"{tp} GH200 superchips (the doc does not describe the multi-GH200 system).")
    unsure = IFB_UNSURE.get((key, slug, gpu, dtype, isl, osl, tp))
    c = cell(fid(f"trtllm-{key}", f"{gslug}x{tp}", f"tp{tp}", slug, dtype, isl, osl), meta["src"], where, quote, E, gpu,
             gpus_override or tp, "throughput", value, "tokens/s", IFB_METRIC, engineVersion=meta["version"],
             note=" ".join(n for n in notes if n) or None, unsure=unsure, config=cfg, **mkw)
    add("ifb", c)


def parse_wide(key):
    """v0.10-v0.14: rows 'model | ISL/OSL | TP | values per (GPU, precision) column'."""
    meta = IFB[key]
    lines = TABLES[key].splitlines()
    gpus = row_cells(lines[0])[3:]
    precs = row_cells(lines[1])[3:]
    head = lines[0] + "\n" + lines[1]
    model = io = None
    for line in lines[3:]:
        r = row_cells(line)
        if r[0]:
            model = r[0]
        if r[1]:
            io = r[1]
        isl, osl = (int(x) for x in io.split("/"))
        tp = int(r[2])
        for j, raw in enumerate(r[3:]):
            g, p = gpus[j].replace("*", "").strip(), precs[j]
            ifb_cell(key, meta, model, g, p, tp, isl, osl, raw,
                     f"table 'Throughput Measurements', model '{model}', Input/Output {io}, TP {tp}, column '{g} {p.replace('*', '').strip()}'",
                     head + "\n" + line)


def parse_tp_first(key, gpu_cols):
    """v0.15 / v0.17: rows 'model | TP | ISL, OSL | values'; gpu_cols = [(GPU label, precision)]."""
    meta = IFB[key]
    lines = TABLES[key].splitlines()
    head = lines[0] + "\n" + lines[1]
    model = tp = None
    for line in lines[3:]:
        r = row_cells(line)
        if r[0]:
            model = r[0]
        if r[1]:
            tp = int(r[1])
        isl, osl = (int(x) for x in r[2].split(","))
        for j, raw in enumerate(r[3:3 + len(gpu_cols)]):
            g, p = gpu_cols[j]
            ifb_cell(key, meta, model, g, p, tp, isl, osl, raw,
                     f"table 'Throughput Measurements', model '{model}', TP {tp}, ISL/OSL {isl}/{osl}, column '{g} {p}'",
                     head + "\n" + line)


def parse_serving():
    meta = IFB["v0.14.0"]
    lines = TABLES["v0.14.0-serving"].splitlines()
    head = lines[0]
    model = gpu_label = None
    tp = isl = osl = None
    for line in lines[1:]:
        f = line.split("|")[1:]
        f = [x.strip() for x in f]
        if f[0]:
            model = f[0]
        if f[1]:
            gpu_label = f[1]
        if f[2]:
            tp = int(f[2])
        if f[3]:
            isl, osl = int(f[3]), int(f[4])
        qps, tput_req, ttft, itl, total_tput, out_tput = f[5], f[6], f[7], f[8], f[9], f[10]
        slug, mkw, mnote = model_of(model)
        gpu, gslug, gnote = gpu_of(gpu_label)
        cfg = {"weights": "bf16", "tp": tp, "promptTokens": isl, "outputTokens": osl,
               "requestRate": "inf" if qps == "INF" else int(qps), "numPrompts": 500, "inflightBatching": True,
               "benchmark": "Triton tensorrtllm_backend online serving"}
        notes = " ".join(x for x in (mnote, gnote, "Served through the Triton TensorRT-LLM backend.") if x)
        where = (f"section 'Online Serving Measurements', model '{model}', GPU '{gpu_label}', TP {tp}, "
                 f"input/output {isl}/{osl}, QPS {qps}")
        quote = head + "\n" + line
        base = fid("trtllm-v0.14.0-serving", f"{gslug}x{tp}", f"tp{tp}", slug, "bf16", isl, osl, f"qps{qps}")
        for suffix, kind, raw, column, unit, metric in (
                ("ttft", "ttft", ttft, "Mean TTFT(ms)", "ms", "mean time to first token"),
                ("itl", "itl", itl, "Mean ITL(ms)", "ms", "mean inter-token latency"),
                ("out-tput", "throughput", out_tput, "Output Tput (tok/s)", "tokens/s",
                 "output tokens/s, whole system, at the stated request rate"),
                ("total-tput", "throughput", total_tput, "Total Token Tput (tok/s)", "tokens/s",
                 "input+output tokens/s, whole system, at the stated request rate")):
            add("ifb", cell(base + "-" + suffix, meta["src"], where + f", column '{column}'", quote, E, gpu, tp, kind,
                            num(raw), unit, metric, engineVersion="0.14.0", note=notes, config=dict(cfg), **mkw))

for key in ("v0.10.0", "v0.11.0", "v0.12.0", "v0.13.0", "v0.14.0", "v0.15.0", "v0.17"):
    meta = IFB[key]
    who = meta["who"] + " "
    if meta["fileid"]:
        who += TAGNOTE.format(v=meta["version"], fid=meta["fileid"]) + " "
    else:
        who += "Commit as stored in the code index (the v0.17 release doc). "
    SOURCES["ifb"].append({"id": meta["src"], "set": "calibration", "engine": E, "title": meta["title"], "repo": REPO,
                           "path": P_PO, "commit": meta["commit"], "who": who + WHO_TEAM})
for key in ("v0.10.0", "v0.11.0", "v0.12.0", "v0.13.0", "v0.14.0"):
    parse_wide(key)
parse_serving()
parse_tp_first("v0.15.0", [("H100 80GB HBM3", "FP8"), ("H100 80GB HBM3", "Mixed"), ("A100-SXM4-80GB", "Mixed"),
                           ("A100-PCIE-80GB", "Mixed"), ("L40S", "FP8"), ("GH200 96GB HBM3 CG1", "FP8")])
parse_tp_first("v0.17", [("H200 141GB HBM3", "FP8"), ("H100 80GB HBM3", "FP8"), ("GH200 480GB", "FP8"),
                         ("L40S", "FP8"), ("A100-SXM4-80GB", "FP16")])

# =========================================================================================================
# 3. PyTorch backend: v0.20 onwards
PT_TOTAL = "output tokens/s, whole system (trtllm-bench Total Output Throughput; all requests queued at once)"
PT_PERGPU = "output tokens/s per GPU (trtllm-bench Per GPU Output Throughput; all requests queued at once)"
PT_COMMON = ("Throughput Measurements: 'a local inference client is fed requests at an infinite rate (no delay between "
             "messages), and shows the throughput scenario under maximum load.' 'Testing was performed on models with weights "
             "quantized using ModelOpt and published by NVIDIA on the Model Optimizer HuggingFace Collection' (nvidia/...-FP8, "
             "...-FP4 checkpoints). 'Starting with v0.19, testing was performed using the PyTorch backend - this workflow does "
             "not require an engine to be built': prepare_dataset.py token-norm-dist with input and output stdev 0, then "
             "trtllm-bench --tp --pp [--ep] throughput --backend pytorch --extra_llm_api_options llm_options.yml; 'we also use "
             "a higher KV cache percentage by setting --kv_cache_free_gpu_mem_fraction 0.95 ... fall back to 0.90 [or lower]'. "
             "Batch size and token budget are left to the runtime (max_batch_size / max_num_tokens not stated).")
PT = {
    "pt-50115608725": dict(
        src="trtllm-perf-v0.20-a", label="v0.20a", version="0.20", commit=None, path=P_PO, unit="tokens/s", metric=PT_TOTAL,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.20 revision whose data ran without CUDA graphs "
              "(B200 FP4; H200, H100 FP8; Llama 3.3 70B, 3.1 405B, 3.1 8B, 3.1 70B)",
        who=PT_COMMON + " This revision: 'The reported metric is Total Output Throughput (tokens/sec)'; 'v0.20 PLEASE READ: The "
            "data collected for the v0.20 benchmarks was run with ... pytorch_backend_config: cuda_graph_padding_enabled: true. "
            "However, this resulted in the unintended consequence of disabling cuda graphs'. Requests: 30000 (128/128), 3000 "
            "(128/2048, 2048/128, 1000/1000, 500/2000), 1500 (128/4096, 1000/2000, 2048/2048, 5000/500), 1000 (20000/2000); "
            "1024/2048 is not listed. Read from the code index's stored copy (file id 50115608725), whose commit the index does "
            "not name (the v0.20.0 release commit is 7965842954628b0b5456a2f7d59786d3dcd41647; whether this text is the one "
            "released is not known).",
        cfg={"cudaGraphs": False}),
    "pt-8901493438": dict(
        src="trtllm-perf-v0.20-b", label="v0.20b", version="0.20", commit=None, path=P_PO, unit="tokens/s", metric=PT_TOTAL,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.20 revision with CUDA graphs (B200 FP4; H200, H100 "
              "FP8; Llama 3.3 70B, 3.1 405B, 3.1 8B, Llama 4 Maverick)",
        who=PT_COMMON + " This revision: 'The reported metric is Total Output Throughput (tokens/sec)'; 'The data collected for "
            "the v0.20 benchmarks was run with the following file: use_cuda_graph: true, cuda_graph_padding_enabled: true, "
            "cuda_graph_batch_sizes: 1 ... 8192'. Requests per ISL/OSL as in the v0.20-a source. Read from the code index's "
            "stored copy (file id 8901493438), whose commit the index does not name.",
        cfg={"cudaGraphs": True}),
    "pt-2997649200": dict(
        src="trtllm-perf-pt-undated", label="ptx", version=None, commit=None, path=P_PO, unit="tokens/s", metric=PT_TOTAL,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, a PyTorch-backend revision that names no version (B200 "
              "FP4; H200, H100 FP8; Llama 3.3 70B, 3.1 405B, 3.1 8B, 3.1 70B)",
        who=PT_COMMON + " This revision: 'The reported metric is Total Output Throughput (tokens/sec)'; llm_options.yml "
            "cuda_graph_config: enable_padding: true, batch_sizes 1 ... 8192. It states no version: its tables (Llama 3.1 70B "
            "FP8, B200 at TP 1-8) are those of the v0.20 revisions, its yaml the v0.21 syntax. Read from the code index's stored "
            "copy (file id 2997649200), whose commit the index does not name.",
        cfg={"cudaGraphs": True}),
    "pt-2488042217": dict(
        src="trtllm-perf-v0.21", label="v0.21", version="0.21", commit="b4b1185af320f109f4cb73b1505832dbc63042d7", path=P_PO,
        unit="tokens/s", metric=PT_TOTAL,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v0.21 (B200, GB200 FP4; GH200, H100, H200 FP8; Llama 3.3 "
              "70B, 3.1 405B, 3.1 8B)",
        who=PT_COMMON + " This revision: 'The reported metric is Total Output Throughput (tokens/sec)'; hardware 'H100 SXM 80GB "
            "(DGX H100), H200 SXM 141GB (DGX H200), GH200 96GB HBM3 (480GB LPDDR5X), B200 180GB (DGX B200), GB200 192GB (GB200 "
            "NVL72)'; 'The data collected for the v0.21 benchmarks was run with ... cuda_graph_config: enable_padding: true, "
            "batch_sizes 1 ... 8192'. The Llama 4 Maverick table there is v0.20 data ('please use v0.20'): taken from the "
            "v0.20-b source only. " + TAGNOTE.format(v="0.21.0", fid="2488042217").replace("generated using version 0.21.0",
                                                                                         "collected for the v0.21 benchmarks"),
        cfg={"cudaGraphs": True}),
    "pt-00f37686": dict(
        src="trtllm-perf-v1.0", label="v1.0", version="1.0", commit="00f37686aa854010d68bcbd0f4ab000221541ca6", path=P_PO,
        unit="tokens/s", metric=PT_TOTAL,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, v1.0 (B200, GB200 FP4; H200, H100 FP8; RTX 6000 Pro "
              "Blackwell Server Edition TP x PP; Llama 4 Scout and Maverick, Llama 3.3 70B, 3.1 405B, 3.1 8B, Qwen3 235B-A22B "
              "and 30B-A3B)",
        who=PT_COMMON + " This revision: 'The reported metric is Total Output Throughput (tokens/sec)'; '(NEW for v1.0) RTX 6000 "
            "Pro Blackwell Server Edition Benchmarks'; hardware 'H100 SXM 80GB (DGX H100), H200 SXM 141GB (DGX H200), B200 180GB "
            "(DGX B200), GB200 192GB (GB200 NVL72), RTX 6000 Pro Blackwell Server Edition'. Dense models: llm_options "
            "cuda_graph_config enable_padding, batch_sizes 1 ... 8192; MoE models: the same with enable_attention_dp "
            "(written inside cuda_graph_config) and --ep $ep_size (its value per cell is not stated). Requests per ISL/OSL as "
            "in v0.20 (1000/2000: 1500). Commit as stored in the code index.",
        cfg={"cudaGraphs": True}),
    "pt-1183216079": dict(
        src="trtllm-perf-v1.0-early", label="v1.0e", version="1.0", commit=None, path=P_PO, unit="tokens/s", metric=PT_TOTAL,
        title="TensorRT-LLM docs/source/performance/perf-overview.md, an earlier v1.0 revision (its figures that the v1.0 "
              "source repeats are left out: this keeps the B200 DeepSeek R1 table)",
        who=PT_COMMON + " As the v1.0 source ('(NEW for v1.0) RTX 6000 Pro Blackwell Server Edition Benchmarks'; Total Output "
            "Throughput), without its 128/128 rows and with a 'DeepSeek R1' table (B200 TP8 FP4, nvidia/DeepSeek-R1-0528-FP4) "
            "that the v1.0 source no longer has; MoE llm_options with enable_attention_dp: true. Only figures absent from or "
            "different in the v1.0 source are kept. Read from the code index's stored copy (file id 1183216079), whose commit "
            "the index does not name.",
        cfg={"cudaGraphs": True}),
    "pt-585c7565": dict(
        src="trtllm-perf-585c756", label="585c756", version=None, commit="585c756579dc4d01f21fc13c2f604cdb461ac4f0",
        path=P_DG, unit="tokens/s/gpu", metric=PT_PERGPU,
        title="TensorRT-LLM docs/source/developer-guide/perf-overview.md at 585c756 (per-GPU output throughput; B200, GB200 "
              "FP4; H200, H100 FP8; RTX 6000 Pro Blackwell Server Edition; DeepSeek R1 0528, gpt-oss 120B/20B, Llama 3.3 70B, "
              "Llama 4 Maverick, Qwen3 235B-A22B and 30B-A3B)",
        who="'The below table shows performance data where a local inference client is fed requests at an high rate / no delay "
            "between messages, and shows the throughput scenario under maximum load. The reported metric is Output Throughput "
            "per GPU (tokens/sec/GPU).' 'All performance values are measured in output tokens per second per GPU, where output "
            "tokens includes the first and all subsequent generated tokens (input tokens are not included). Data in these "
            "tables is taken from the Per GPU Output Throughput (tps/gpu) metric reported by trtllm-bench.' PyTorch backend, "
            "trtllm-bench --tp --pp [--ep] throughput --config llm_options.yml: Llama 3.3 cuda_graph_config enable_padding, "
            "batch_sizes 1 ... 8192; GPT-OSS the same + enable_attention_dp, kv_cache_config dtype fp8 ('Hopper: use auto'), "
            "moe_config backend CUTLASS ('Hopper: use TRITON'); DeepSeek R1 attention DP (balance), CUTLASS MoE, fp8 KV cache; "
            "Qwen3 MoE and Llama 4 Maverick enable_attention_dp. 'DEPn' = n GPUs with attention data parallelism and expert "
            "parallelism. KV cache fraction 0.95 in many cases (0.90 or lower on OOM). Requests: 3000 (1024/1024), 1500 "
            "(8192/1024, 1024/8192), 1000 (32768/1024, 1024/32768); 1000/1000 is not listed. The doc states no release. "
            "Commit as stored in the code index.",
        cfg={"cudaGraphs": True}),
    "pt-19286142392": dict(
        src="trtllm-perf-pergpu-early", label="pergpu-e", version=None, commit=None, path=P_DG, unit="tokens/s/gpu",
        metric=PT_PERGPU,
        title="TensorRT-LLM perf-overview.md, the first per-GPU revision (its figures that the 585c756 source repeats are "
              "left out)",
        who="As the 585c756 source ('All performance values are measured in output tokens per second per GPU'; trtllm-bench "
            "on the PyTorch backend; dense llm_options cuda_graph_config; MoE models with enable_attention_dp), an earlier "
            "revision ('Total networks: 8') whose llm_options list no KV-cache dtype or MoE backend. Only figures absent from "
            "or different in the 585c756 source are kept. Read from the code index's stored copy (file id 19286142392), whose "
            "commit and path (performance/ or developer-guide/) the index does not name.",
        cfg={"cudaGraphs": True}),
    "pt-53206213621": dict(
        src="trtllm-perf-release-1.2", label="rel1.2", version="1.2", commit=None, path=P_DG, unit="tokens/s/gpu",
        metric=PT_PERGPU,
        title="TensorRT-LLM docs/source/developer-guide/perf-overview.md, release/1.2 revision (per-GPU output throughput; "
              "B200, B300 (beta), GB200, GB300 (beta) FP4; H200 FP8; RTX 6000 Pro Blackwell Server Edition)",
        who="'The reported metric is Output Throughput per GPU (tokens/sec/GPU).' 'All performance values are measured in "
            "output tokens per second per GPU, where output tokens refers to all generated tokens (excluding input/prompt "
            "tokens). Data in these tables is taken from the Per GPU Output Throughput (tps/gpu) metric reported by "
            "trtllm-bench.' 'Note: As of release/1.2, support for B300 and GB300 is in beta, and performance data should not "
            "be considered finalized.' Dense: trtllm-bench ... --config llm_options.yml --concurrency -1 (cuda_graph_config "
            "enable_padding, batch_sizes 1 ... 8192); GPT-OSS enable_attention_dp, fp8 KV cache ('Hopper: use auto'), MoE "
            "backend TRTLLM ('Hopper: use TRITON'); DeepSeek R1 attention DP (balance), CUTLASS MoE, fp8 KV cache; Qwen3 MoE "
            "enable_attention_dp. NUMA CPU-affinity options 'were enabled for relevant tests'. Requests: 3000 (1024/1024), "
            "1500 (8192/1024, 1024/8192), 1000 (32768/1024, 1024/32768). Read from the code index's stored copy (file id "
            "53206213621), whose commit the index does not name.",
        cfg={"cudaGraphs": True}),
}


def par_of(text):
    """'TP2' / 'DEP4' / 'TP1,PP8' / 'DEP2,PP2' -> (config, gpus, slug)."""
    cfg, gpus, slug = {}, 1, []
    for part in text.split(","):
        part = part.strip()
        m = re.match(r"(DEP|TP|PP)(\d+)$", part)
        kind, n = m.group(1), int(m.group(2))
        if kind == "DEP":
            cfg.update({"tp": n, "ep": n, "attentionDp": True})
            gpus *= n
        elif kind == "TP":
            cfg["tp"] = n
            gpus *= n
        else:
            cfg["pp"] = n
            gpus *= n
        slug.append(f"{kind.lower()}{n}")
    return cfg, gpus, "".join(slug)


def weights_of(meta_key, prec, slug):
    p = prec.lower()
    if p == "fp8":
        return "fp8"
    if slug.startswith("gpt-oss"):
        return "fp4"
    return "nvfp4"


def pt_cfg(key, meta, slug, gpu, prec, par, isl, osl):
    cfg = {"weights": weights_of(key, prec, slug)}
    if key in ("pt-585c7565", "pt-53206213621"):
        if slug == "deepseek-r1":
            cfg["kvCache"] = "fp8"
        if slug.startswith("gpt-oss"):
            cfg["kvCache"] = "auto" if gpu in ("H100 SXM5", "H200 SXM") else "fp8"
    cfg.update(par)
    cfg.update({"promptTokens": isl, "outputTokens": osl, "inflightBatching": True})
    table = NREQ_PERGPU if meta["unit"] == "tokens/s/gpu" else NREQ_V011
    if (isl, osl) in table:
        cfg["numPrompts"] = table[(isl, osl)]
    cfg["benchmark"] = "trtllm-bench throughput (PyTorch backend)"
    cfg.update(meta["cfg"])
    if key == "pt-53206213621" and "pp" not in par and "ep" not in par:
        cfg["concurrency"] = "unlimited (--concurrency -1)"
    return cfg


def pt_emit(key, meta, model_label, gpu, gslug, gnote, prec, par_text, isl, osl, raw, where, quote, skip=None):
    if raw is None or raw.strip() == "":
        return
    value = num(raw)
    slug, mkw, mnote = model_of(model_label)
    par, gpus, pslug = par_of(par_text)
    cfg = pt_cfg(key, meta, slug, gpu, prec, par, isl, osl)
    if skip and skip(slug, gpu, pslug, isl, osl, value):
        return
    notes = [mnote, gnote]
    if "ep" in par:
        notes.append(f"DEP{par['ep']}: {par['ep']} GPUs with attention data parallelism and expert parallelism.")
    if cfg["weights"] == "fp4":
        notes.append("Written '(FP4)'; the gpt-oss checkpoints hold MXFP4 expert weights.")
    if slug.startswith("gpt-oss") and prec.lower() == "fp8":
        notes.append("Written '(FP8)' for Hopper; the checkpoint is not named.")
    unsure = None
    if key == "pt-2997649200":
        unsure = ("This doc revision names no version (v0.20-v0.21 by its contents) and its commit is unknown; its figures "
                  "differ from both v0.20 revisions.")
    if gslug in ("b300", "gb300"):
        unsure = "B300/GB300 support is beta per the doc: 'performance data should not be considered finalized'."
    c = cell(fid(f"trtllm-{meta['label']}", f"{gslug}x{gpus}", pslug, slug, cfg["weights"], isl, osl), meta["src"], where,
             quote, E, gpu, gpus, "throughput", value, meta["unit"], meta["metric"], engineVersion=meta["version"],
             note=" ".join(n for n in notes if n) or None, unsure=unsure, config=cfg, **mkw)
    add("pt", c)


def parse_pt_grid(key, skip=None):
    """v0.20/v0.21 layout: per model a 'GPU' row (blank = as before), a 'TP Size' row, then 'ISL, OSL' rows."""
    meta = PT[key]
    for head, rows in blocks(key):
        m = re.match(r"(.*?) (FP4|FP8)$", head)
        model_label, prec = m.group(1), m.group(2)
        grow = row_cells(rows[0])
        trow = row_cells(rows[1])
        # GPU and TP Size may sit in column 0 or 1; the values start at column 2
        gl = grow[2:]
        cur, gpus_by_col = None, []
        for g in gl:
            if g:
                cur = g
            gpus_by_col.append(cur)
        tps = trow[2:]
        for line in rows[3:]:
            r = row_cells(line)
            if not re.match(r"^\d+, \d+$", r[0]):
                continue
            isl, osl = (int(x) for x in r[0].split(","))
            for j, raw in enumerate(r[2:]):
                glabel = gpus_by_col[j]
                gpu, gslug, gnote = gpu_of(glabel)
                if key == "pt-2488042217" and glabel == "GH200":
                    gpu = "GH200 96GB HBM3 (480GB LPDDR5X)"
                    gnote = ("GH200 is not in models/gpus.json: named as the doc's hardware list does ('GH200 96GB HBM3 "
                             "(480GB LPDDR5X)'); the table writes 'GH200'")
                tp = int(tps[j])
                pt_emit(key, meta, model_label, gpu, gslug, gnote, prec, f"TP{tp}", isl, osl, raw,
                        f"table '{head}', row '{r[0]}', column '{glabel} TP {tp}'",
                        rows[0] + "\n" + rows[1] + "\n" + line, skip)


def parse_pt_cols(key, skip=None):
    """v1.0 onwards: per model '| Sequence Length (ISL/OSL) | GPU<br/>PAR (PREC) | ...' (RTX: '**n GPUs**<br/>PAR (PREC)')."""
    meta = PT[key]
    for head, rows in blocks(key):
        model_label = head
        header = row_cells(rows[0])
        cols = []
        for h in header[1:]:
            left, right = h.split("<br/>")
            m = re.match(r"(.*) \((FP4|FP8)\)$", right.strip())
            par_text, prec = m.group(1), m.group(2)
            if "GPUs" in left:
                gpu, gslug, gnote = RTX
                assert par_of(par_text)[1] == int(re.search(r"(\d+) GPUs", left).group(1)), h
                glabel = "RTX 6000 Pro Blackwell Server Edition " + left.replace("*", "").strip()
            else:
                gpu, gslug, gnote = gpu_of(left)
                glabel = left
            cols.append((gpu, gslug, gnote, glabel, par_text, prec))
        for line in rows[1:]:
            r = row_cells(line)
            isl, osl = (int(x) for x in r[0].split("/"))
            for j, raw in enumerate(r[1:1 + len(cols)]):
                gpu, gslug, gnote, glabel, par_text, prec = cols[j]
                pt_emit(key, meta, model_label, gpu, gslug, gnote, prec, par_text, isl, osl, raw,
                        f"table '{head}', row '{r[0]}', column '{glabel} {par_text} ({prec})'", rows[0] + "\n" + line, skip)


def values_of(key, parser):
    """(slug, gpu, par, isl, osl) -> value for a source, to drop the figures an earlier revision shares with a later one."""
    seen = {}

    def grab(slug, gpu, pslug, isl, osl, value):
        seen[(slug, gpu, pslug, isl, osl)] = value
        return True  # skip: only collect

    parser(key, skip=grab)
    return seen


for key, meta in PT.items():
    SOURCES["pt"].append({k: v for k, v in (("id", meta["src"]), ("set", "calibration"), ("engine", E),
                                             ("title", meta["title"]), ("repo", REPO), ("path", meta["path"]),
                                             ("commit", meta["commit"]), ("who", meta["who"] + " " + WHO_TEAM))
                          if v is not None})
for key in ("pt-50115608725", "pt-8901493438", "pt-2997649200"):
    parse_pt_grid(key)
parse_pt_grid("pt-2488042217")
parse_pt_cols("pt-00f37686")
later_v10 = values_of("pt-00f37686", parse_pt_cols)
parse_pt_cols("pt-1183216079", skip=lambda s, g, p, i, o, v: later_v10.get((s, g, p, i, o)) == v)
parse_pt_cols("pt-585c7565")
later_dg = values_of("pt-585c7565", parse_pt_cols)
parse_pt_cols("pt-19286142392", skip=lambda s, g, p, i, o, v: later_dg.get((s, g, p, i, o)) == v)
parse_pt_cols("pt-53206213621")

# =========================================================================================================
ABOUT = ("TensorRT-LLM's own published performance figures (NVIDIA/TensorRT-LLM docs), one source per doc version, "
         "extracted by bench/engines/tools/firstparty_tensorrt_llm.py from the rows in firstparty_tensorrt_llm_tables.py.")
write("firstparty-tensorrt-llm", ABOUT + " This file: docs/source/performance.md v0.5-v0.9 (static batches, "
      "gptSessionBenchmark; batch-1 first-token latency).", SOURCES["static"], ALL["static"])
write("firstparty-tensorrt-llm-ifb", ABOUT + " This file: perf-overview.md v0.10-v0.17 (in-flight batching with TensorRT "
      "engines: gptManagerBenchmark, trtllm-bench) and v0.14's Triton online-serving table.", SOURCES["ifb"], ALL["ifb"])
write("firstparty-tensorrt-llm-pytorch", ABOUT + " This file: perf-overview.md v0.20 onwards (trtllm-bench on the PyTorch "
      "backend; whole-system output tokens/s through v1.0, output tokens/s per GPU after).", SOURCES["pt"], ALL["pt"])
