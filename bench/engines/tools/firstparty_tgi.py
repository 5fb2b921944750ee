"""TGI first-party figures: the TGI v3 overview in the repository's docs and a TGI maintainer's
text-generation-benchmark output in a TGI pull request; vLLM rows measured by the TGI team are held out.
Writes cells-firstparty-tgi.json and cells-heldout-tgi-posts.json."""
from fp_common import cell, num, row_cells, write

R = "huggingface/text-generation-inference"
V3 = "tgi-docs-v3-overview"
V3_HO = "tgi-docs-v3-overview-vllm-rows"
P1243 = "tgi-pr1243-fxmarty"
COMMIT = "db931fcf42da018a3657580c64bf2720f167f9ab"
sources = [
    {"id": V3, "set": "calibration", "engine": "tgi",
     "title": "TGI docs/source/conceptual/chunking.md 'TGI v3 overview', section 'Benchmarks' (raw results table, TGI columns)",
     "repo": R, "path": "docs/source/conceptual/chunking.md", "commit": COMMIT,
     "who": "The TGI team at Hugging Face (page added in PR #2809 'V3 doc', 2024-12-10, with TGI v3.0); k6 load tests from the repo's load_tests/; first-party"},
    {"id": P1243, "set": "calibration", "engine": "tgi",
     "title": "TGI PR #1243 'Add RoCm support' (merged), turn 33 by fxmarty: text-generation-benchmark on A100 (prefill step times)",
     "repo": R, "url": "https://github.com/huggingface/text-generation-inference/pull/1243",
     "who": "fxmarty (Hugging Face, TGI contributor) in a TGI pull request; first-party"},
]
held_sources = [
    {"id": V3_HO, "set": "held-out",
     "title": "TGI docs/source/conceptual/chunking.md 'TGI v3 overview', raw results table, vLLM columns", "repo": R,
     "path": "docs/source/conceptual/chunking.md", "commit": COMMIT,
     "who": "The TGI team measuring vLLM (`vllm serve $MODEL_ID --tensor-parallel $N --enable-prefix-caching`, version not stated); held out"},
]
cells, held = [], []
hdr2 = ("|   |   |   |   |   |\n|---|---|---|---|---|\n"
        "|2nd run ||**TGI v3** (time in s)|**vLLM** (s)|**Amount of req**|")
hdr1 = "|1st run ||TGI (s)|vLLM (s)|Amount of req|"
runs = {
    2: (hdr2, """|**Llama 3.1 8b**|Small test - L4 - 8B|17.5|19.9|200|
|**Llama 3.1 8b**|Long test* - L4 - 8B|53|57|10|
|**Llama 3.1 8b**|Small test - 4xL4 - 8B|4.8|6|200|
|**Llama 3.1 8b**|Long test - 4xL4 - 8B|3.2|12.5|20|
|**Llama 3.1 70b**|Small test - 8XH100 - 70B|6.2|7.4|200|
|**Llama 3.1 70b**|Long test - 8H100 - 70B|2|27.5|20|"""),
    1: (hdr1, """|**Llama 3.1 8b**|Small test - L4|19.9|19.9|200|
|**Llama 3.1 8b**|Long test (10) - L4|49.8|55|10|
|**Llama 3.1 8b**|Small test - 4xL4|13|12.6|200|
|**Llama 3.1 8b**|Long test - 4xL4|47|50.3|20|
|**Llama 3.1 70b**|Small test - 8XH100|7.5|7.6|200|
|**Llama 3.1 70b**|Long test - 8H100|12.1|28.3|20|"""),
}
for run, (hdr, rows) in runs.items():
    for line in rows.splitlines():
        r = row_cells(line)
        scen = r[1]
        small = scen.startswith("Small")
        if "4xL4" in scen:
            gpu, n = "L4", 4
        elif "L4" in scen:
            gpu, n = "L4", 1
        else:
            gpu, n = "H100", 8
        model = "llama-3.1-70b" if "70b" in r[0] else "llama-3.1-8b"
        nreq = int(r[4])
        gid = f"{n}x{gpu.lower()}"
        cfg = {"tp": n, "numPrompts": nreq, "prefixCaching": True, "cacheWarm": run == 2,
               "scenario": "small (orca, first 200 requests, ~8k prompt tokens in total)" if small
               else f"long ({nreq} requests, ~200k prompt tokens in total for 20 requests)"}
        for col, eng in ((2, "tgi"), (3, "vllm")):
            c = cell(
                f"tgi-v3-{'tgi' if eng == 'tgi' else 'vllm'}-{gid}-{'small' if small else 'long'}-run{run}",
                V3 if eng == "tgi" else V3_HO,
                f"section 'Results', raw results table, block '{run}{'nd' if run == 2 else 'st'} run', row '{scen}', column "
                f"'{'TGI' if eng == 'tgi' else 'vLLM'}'",
                hdr + "\n" + line, eng, gpu, n, "e2e", num(r[col]), "s",
                f"wall time for k6 to complete all {nreq} requests of the scenario",
                model=model, config=dict(cfg), engineVersion="3.0" if eng == "tgi" else None,
                note=("Benchmarks 'with prefix caching on ... reporting the results of the 2nd run' (the 1st run starts with an "
                      "empty cache). Small scenario: 'the first 200 requests from the orca datasets ... total 8k tokens'; long: "
                      "'20 requests totalling 200k prompt tokens' (10 on one L4). TGI: text-generation-launcher --model-id $MODEL_ID "
                      "--num-shard $N. Models meta-llama/Meta-Llama-3.1-8B-Instruct and Meta-Llama-3.1-70B-Instruct."),
                unsure="output lengths not stated (set by the k6 scripts); TGI version read from the doc's release (v3.0, Dec 2024); H100 variant not stated; the whole-scenario time mixes queueing, prefill and decode")
            (cells if eng == "tgi" else held).append(c)

h1243 = ("| Step           | Batch Size | Average    | Lowest     | Highest    | p50        | p90        | p99        |\n"
         "|----------------|------------|------------|------------|------------|------------|------------|------------|")
for line in """| Prefill        | 100        | 370.77 ms  | 370.77 ms  | 370.77 ms  | 370.77 ms  | 370.77 ms  | 370.77 ms  |
|                | 150        | 587.97 ms  | 587.97 ms  | 587.97 ms  | 587.97 ms  | 587.97 ms  | 587.97 ms  |
|                | 200        | 765.51 ms  | 765.51 ms  | 765.51 ms  | 765.51 ms  | 765.51 ms  | 765.51 ms  |
|                | 250        | 1015.73 ms | 1015.73 ms | 1015.73 ms | 1015.73 ms | 1015.73 ms | 1015.73 ms |
|                | 300        | 1164.50 ms | 1164.50 ms | 1164.50 ms | 1164.50 ms | 1164.50 ms | 1164.50 ms |
|                | 350        | 1464.20 ms | 1464.20 ms | 1464.20 ms | 1464.20 ms | 1464.20 ms | 1464.20 ms |""".splitlines():
    r = row_cells(line)
    b = int(r[1])
    cells.append(cell(
        f"tgi-pr1243-a100-llama2-13b-prefill-b{b}", P1243, f"turn 33, section 'A100', table row 'Prefill | {b}', column 'Average'",
        h1243 + "\n" + line, "tgi", "A100", 1, "prefill", num(r[2]), "ms", f"time of one prefill step for {b} sequences of 40 tokens",
        model="llama-13b", config={"batch": b, "promptTokens": 40, "outputTokens": 10, "weights": "fp16 (default)"},
        engineVersion="PR #1243 branch (December 2023)",
        note=("`text-generation-benchmark --tokenizer-name meta-llama/Llama-2-13b-chat-hf --sequence-length 40 --decode-length 10 "
              "--runs 1 --warmups 1 -b 100 ... -b 800` against a TGI server with Llama-2-13b-chat (catalog llama-13b). One run per batch size."),
        unsure="A100 variant (40/80 GB, SXM/PCIe) and the number of shards are not stated in the excerpt; dtype not stated (TGI default fp16)"))

write("firstparty-tgi", "TGI (text-generation-inference) first-party figures: the TGI v3 overview in the repository docs and "
      "TGI contributors' benchmark output in TGI pull requests.", sources, cells)
write("heldout-tgi-posts", "Held-out figures from TGI's publications: vLLM measured by the TGI team (TGI v3 overview).",
      held_sources, held)
