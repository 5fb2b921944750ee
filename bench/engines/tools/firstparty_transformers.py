"""Hugging Face transformers first-party figures: Hugging Face's own measurements of transformers generate()
(optimum's GPTQ benchmark README, mirrored in the HF blog 'Making LLMs lighter with AutoGPTQ, transformers and
optimum'; the huggingface-llama-recipes torch.compile recipe). Writes cells-firstparty-transformers.json."""
from fp_common import cell, num, row_cells, write

E = "transformers"
OPT = "hf-optimum-gptq-benchmark"
REC = "hf-llama-recipes-torch-compile"
sources = [
    {"id": OPT, "set": "calibration", "engine": E,
     "title": "huggingface/optimum tests/benchmark/README.md, section 'GPTQ benchmark' (transformers generate, fp16 vs AutoGPTQ "
              "kernels, Llama-2-13b-chat, A100-SXM4-80GB)", "repo": "huggingface/optimum", "path": "tests/benchmark/README.md",
     "commit": "096386299309ec9c4c737c9e5ce260008c48fad7",
     "who": "Hugging Face (optimum/transformers maintainers; the batch-1 table is also in the HF blog post 'Making LLMs lighter with "
            "AutoGPTQ, transformers and optimum', Aug 2023, by marcsun13, fxmarty et al.); benchmark_gptq.py in the same folder; first-party"},
    {"id": REC, "set": "calibration", "engine": E,
     "title": "huggingface/huggingface-llama-recipes torch_compile.py: Llama 3.1 8B Instruct generate() timings with and without "
              "static cache + torch.compile", "repo": "huggingface/huggingface-llama-recipes", "path": "torch_compile.py",
     "commit": "b2b4fb688f4f535fb1cc334caef8aa2793d09237", "who": "Hugging Face (official Llama recipes repository); first-party"},
]
cells = []
KERN = {"None": ("fp16", None), "exllama": ("int4-gptq", "exllama"), "autogptq-cuda-old": ("int4-gptq", "autogptq-cuda-old")}
gen_hdr = ("|gptq |act_order|bits|group_size|kernel|Load time (s)|Per-token latency (ms)|Throughput (tok/s)|Peak memory (MB)|\n"
           "|-----|---------|----|----------|------|-------------|----------------------|------------------|----------------|")
gen = {
    1: """|False|None     |None|None      |None  |26.0         |36.958                |27.058            |29152.98        |
|True |False    |4   |128       |exllama|36.2         |33.711                |29.663            |10484.34        |
|True |False    |4   |128       |autogptq-cuda-old|36.2         |46.44                 |21.53             |10344.62        |""",
    2: """|False|None     |None|None      |None  |26.0         |37.35                 |53.53             |30831.09        |
|True |False    |4   |128       |exllama|36.2         |37.25                 |53.68             |12162.43        |
|True |False    |4   |128       |autogptq-cuda-old|36.2         |47.41                 |42.18             |12020.34        |""",
    4: """|False|None     |None|None      |None             |26.0         |37.89                 |105.55            |34187.22        |
|True |False    |4   |128       |exllama          |36.2         |54.14                 |73.87             |15518.55        |
|True |False    |4   |128       |autogptq-cuda-old|36.2         |60.98                 |65.59             |15374.67        |""",
    8: """|False|None     |None|None      |None  |26.0         |47.37                 |168.86            |40327.62        |
|True |False    |4   |128       |exllama|36.2         |73.57                 |108.73            |21864.56        |
|True |False    |4   |128       |autogptq-cuda-old|36.2         |104.44                |76.59             |20987.68        |""",
    16: """|False|None     |None|None      |None  |26.0         |69.94                 |228.76            |53986.51        |
|True |False    |4   |128       |exllama|36.2         |95.41                 |167.68            |34777.04        |
|True |False    |4   |128       |autogptq-cuda-old|36.2         |192.48                |83.12             |35497.62        |""",
}
for b, rows in gen.items():
    for line in rows.splitlines():
        r = row_cells(line)
        w, kern = KERN[r[4]]
        cfg = {"weights": w, "batch": b, "promptTokens": 512, "outputTokens": 512}
        if kern:
            cfg.update({"gptqKernel": kern, "groupSize": 128, "actOrder": False})
        kid = kern or "fp16"
        cells.append(cell(
            f"hf-gptq-a100-llama2-13b-{kid}-b{b}-decode", OPT,
            f"section 'Generation benchmark results', table 'Batch size = {b}', row 'kernel {r[4]}', column 'Throughput (tok/s)'",
            gen_hdr + "\n" + line, E, "A100 SXM4 80GB", 1, "decode", num(r[7]), "tokens/s",
            f"generated tokens/s summed over the batch of {b} (batch / per-token latency)", model="llama-13b", config=cfg,
            note=(f"Per-token latency {num(r[6]):g} ms. 'We use a prompt length of 512, and generate exactly 512 new tokens. Each "
                  "generation is repeated for 4 batches, and metrics are averaged over the number of batches and generation "
                  "length.' Model daryl149/llama-2-13b-chat-hf and TheBloke/Llama-2-13B-chat-GPTQ (4-bit, group 128) via "
                  "transformers + optimum + AutoGPTQ; fp16 baseline in PyTorch. Per-token latency includes the prefill amortized "
                  "over 512 tokens."),
            unsure="transformers/optimum/AutoGPTQ versions not stated (mid-2023)"))

pre_hdr = ("|gptq |act_order|bits|group_size|kernel           |prompt_length|new_tokens|Load time (s)|Per-token latency (ms)|Throughput (tok/s)|Max memory (MB)|\n"
           "|-----|---------|----|----------|-----------------|-------------|----------|-------------|----------------------|------------------|---------------|")
pre = {
    1: """|False|None     |None|None      |None             |512          |1         |27.22        |96.38                 |10.38             |27999.54       |
|True |False    |4   |128       |exllama          |512          |1         |38.35        |112.54                |8.89              |9330.89        |
|True |False    |4   |128       |autogptq-cuda-old|512          |1         |43.94        |368.13                |2.72              |9474.19        |""",
    2: """|False|None     |None|None      |None             |512          |1         |27.22        |169.95                |11.77             |28524.37       |
|True |False    |4   |128       |exllama          |512          |1         |38.35        |190.44                |10.50             |9855.71        |
|True |False    |4   |128       |autogptq-cuda-old|512          |1         |43.94        |443.80                |4.51              |9928.23        |""",
    4: """|False|None     |None|None      |None             |512          |1         |27.22        |305.99                |13.07             |29574.01       |
|True |False    |4   |128       |exllama          |512          |1         |38.35        |345.54                |11.58             |10905.35       |
|True |False    |4   |128       |autogptq-cuda-old|512          |1         |43.94        |597.24                |6.70              |10838.42       |""",
    8: """|False|None     |None|None      |None             |512          |1         |27.22        |600.47                |13.32             |31673.30       |
|True |False    |4   |128       |exllama          |512          |1         |38.35        |659.61                |12.13             |13004.64       |
|True |False    |4   |128       |autogptq-cuda-old|512          |1         |43.94        |909.09                |8.80              |12862.18       |""",
}
for b, rows in pre.items():
    for line in rows.splitlines():
        r = row_cells(line)
        w, kern = KERN[r[4]]
        cfg = {"weights": w, "batch": b, "promptTokens": 512, "outputTokens": 1}
        if kern:
            cfg.update({"gptqKernel": kern, "groupSize": 128, "actOrder": False})
        kid = kern or "fp16"
        cells.append(cell(
            f"hf-gptq-a100-llama2-13b-{kid}-b{b}-prefill", OPT,
            f"section 'Prefill-only benchmark results', table 'Batch size = {b}', row 'kernel {r[4]}', column 'Per-token latency (ms)'",
            pre_hdr + "\n" + line, E, "A100 SXM4 80GB", 1, "prefill", num(r[8]), "ms",
            f"time of generate() with one new token: the prefill of {b} x 512-token prompts", model="llama-13b", config=cfg,
            note=("'prompt length of 512, measuring only the prefill step on a single NVIDIA A100-SXM4-80GB GPU. The forward is "
                  "repeated 10 times ... here `generate` is called, which has some overhead.' The table's 'Throughput (tok/s)' is "
                  f"batch / latency ({num(r[9]):g}), i.e. sequences/s, not prompt tokens/s."),
            unsure="transformers/optimum/AutoGPTQ versions not stated (mid-2023)"))
# batch 16 prefill table has extra columns
p16_hdr = ("|gptq |act_order|bits|group_size|kernel           |num_batches|batch_size|prompt_length|new_tokens|Load time (s)|Per-token latency (ms)|Throughput (tok/s)|Max memory (MB)|\n"
           "|-----|---------|----|----------|-----------------|-----------|----------|-------------|----------|-------------|----------------------|------------------|---------------|")
for line in """|True |False    |4   |128       |exllama          |10         |16        |512          |1         |38.35        |1280.25               |12.50             |17203.22       |
|False|None     |None|None      |None             |10         |16        |512          |1         |27.22        |1209.07               |13.23             |35871.88       |
|True |False    |4   |128       |autogptq-cuda-old|10         |16        |512          |1         |43.94        |1533.54               |10.43             |17060.76       |""".splitlines():
    r = row_cells(line)
    w, kern = KERN[r[4]]
    cfg = {"weights": w, "batch": 16, "promptTokens": 512, "outputTokens": 1}
    if kern:
        cfg.update({"gptqKernel": kern, "groupSize": 128, "actOrder": False})
    kid = kern or "fp16"
    cells.append(cell(
        f"hf-gptq-a100-llama2-13b-{kid}-b16-prefill", OPT,
        f"section 'Prefill-only benchmark results', table 'Batch size = 16', row 'kernel {r[4]}', column 'Per-token latency (ms)'",
        p16_hdr + "\n" + line, E, "A100 SXM4 80GB", 1, "prefill", num(r[10]), "ms",
        "time of generate() with one new token: the prefill of 16 x 512-token prompts", model="llama-13b", config=cfg,
        note="See the other prefill rows; 'Throughput (tok/s)' here is sequences/s.",
        unsure="transformers/optimum/AutoGPTQ versions not stated (mid-2023)"))

rq = ("model = AutoModelForCausalLM.from_pretrained(ckpt, torch_dtype=torch.float16)\n...\nmodel.generation_config.max_length = 128\n\n"
      "# without `torch.compile`: each call takes ~ 5.0 seconds (on A100 80G + torch 2.3)\n...\n"
      "model.forward = torch.compile(model.forward, mode=\"reduce-overhead\", fullgraph=True)\n"
      "model.generation_config.cache_implementation = \"static\"\n\n# with `torch.compile` (on A100 80G + torch 2.3)\n"
      "# 1st call: ~ 90 seconds\n...\n# 2nd call: ~ 60 seconds\n...\n# 3nd call: ~ 1.5 seconds")
for suffix, val, cfg, desc in (
        ("eager", 5.0, {"weights": "fp16", "batch": 1, "maxLength": 128, "cache": "dynamic", "torchCompile": False}, "without torch.compile"),
        ("compiled", 1.5, {"weights": "fp16", "batch": 1, "maxLength": 128, "cache": "static", "torchCompile": "reduce-overhead (CUDA graphs)"},
         "static cache + torch.compile, 3rd call (after compilation)")):
    cells.append(cell(
        f"hf-recipes-a100-llama31-8b-generate-{suffix}", REC, f"torch_compile.py comments, generate() {desc}", rq, E,
        "A100 80G", 1, "e2e", val, "s", f"wall time of one greedy generate() call ({desc})", model="llama-3.1-8b",
        config=cfg, engineVersion="transformers of mid-2024 with torch 2.3",
        note=("meta-llama/Meta-Llama-3.1-8B-Instruct, prompt 'Why dogs are so cute?' (a few tokens, no chat template), do_sample=False, "
              "max_length 128 including the prompt, so up to ~120 new tokens."),
        unsure="approximate ('~') figures; number of generated tokens not stated (generation may stop at EOS before max_length); A100 80G SXM or PCIe not stated; transformers version not stated"))

write("firstparty-transformers", "Hugging Face transformers first-party figures: Hugging Face's own measurements of "
      "transformers generate() (optimum GPTQ benchmark, HF llama recipes).", sources, cells)
