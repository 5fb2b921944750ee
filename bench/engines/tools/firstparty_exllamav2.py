"""ExLlamaV2 first-party figures: the README 'Performance' table of turboderp/exllamav2.
Writes cells-firstparty-exllamav2.json."""
from fp_common import ARCH, cell, num, row_cells, write

E = "exllamav2"
SRC = "exl2-readme-performance"
HEAD = "b9c025b4b1ee78c0d34e700f2e474a02dfb13c90"
sources = [{
    "id": SRC, "set": "calibration", "engine": E,
    "title": "ExLlamaV2 README, section 'Performance' (decode speed per model and quantization, RTX 3090 Ti and RTX 4090)",
    "repo": "turboderp/exllamav2", "path": "README.md", "commit": HEAD,
    "who": "turboderp (ExLlamaV2's author), own RTX 3090 Ti and RTX 4090; rows last updated in commits 5080cbb "
           "(2024-03-10, v0.0.15), ef5ca7b (2024-03-11, v0.0.15), 61e3092 ('Update benchmarks after graphs', "
           "2024-08-15, v0.1.8) and 373bcc1 ('Update benchmarks', 2024-08-17, v0.1.8); first-party",
}]
header = ("| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |\n"
          "|------------|--------------|-------|-------|-----|---------|-------------|")
rows = [  # (row, commit where its figures were last set, version at that commit)
    ("| Llama      | GPTQ         | 7B    | 128   | no  | 181 t/s | **205** t/s |", "61e3092", "0.1.8"),
    ("| Llama      | GPTQ         | 13B   | 128   | no  | 110 t/s | **114** t/s |", "61e3092", "0.1.8"),
    ("| Llama      | GPTQ         | 33B   | 128   | yes | 44 t/s  | **48** t/s  |", "5080cbb", "0.0.15"),
    ("| OpenLlama  | GPTQ         | 3B    | 128   | yes | 259 t/s | **296** t/s |", "61e3092", "0.1.8"),
    ("| CodeLlama  | EXL2 4.0 bpw | 34B   | -     | -   | 44 t/s  | **50** t/s  |", "ef5ca7b", "0.0.15"),
    ("| Llama2     | EXL2 3.0 bpw | 7B    | -     | -   | 217 t/s | **257** t/s |", "373bcc1", "0.1.8"),
    ("| Llama2     | EXL2 4.0 bpw | 7B    | -     | -   | 185 t/s | **211** t/s |", "373bcc1", "0.1.8"),
    ("| Llama2     | EXL2 5.0 bpw | 7B    | -     | -   | 164 t/s | **179** t/s |", "373bcc1", "0.1.8"),
    ("| Llama2     | EXL2 2.5 bpw | 70B   | -     | -   | 33 t/s  | **38** t/s  |", "61e3092", "0.1.8"),
    ("| TinyLlama  | EXL2 3.0 bpw | 1.1B  | -     | -   | 656 t/s | **770** t/s |", "373bcc1", "0.1.8"),
    ("| TinyLlama  | EXL2 4.0 bpw | 1.1B  | -     | -   | 602 t/s | **700** t/s |", "373bcc1", "0.1.8"),
]
MODELS = {
    ("Llama", "7B"): ({"model": "llama-7b"}, "LLaMA 1 7B: the catalog llama-7b's dimensions (context 2048 instead of 4096)."),
    ("Llama", "13B"): ({"model": "llama-13b"}, "LLaMA 1 13B: the catalog llama-13b's dimensions (context 2048 instead of 4096)."),
    ("Llama", "33B"): ({"arch": ARCH["llama-33b"]}, "LLaMA 1 33B; architecture from huggyllama/llama-30b config.json."),
    ("OpenLlama", "3B"): ({"arch": ARCH["openllama-3b"]}, "OpenLLaMA 3B; architecture from openlm-research/open_llama_3b config.json."),
    ("CodeLlama", "34B"): ({"arch": ARCH["codellama-34b"]}, "CodeLlama 34B; architecture from codellama/CodeLlama-34b-hf config.json."),
    ("Llama2", "7B"): ({"model": "llama-7b"}, "Llama 2 7B (catalog llama-7b)."),
    ("Llama2", "70B"): ({"arch": ARCH["llama-2-70b"]}, "Llama 2 70B; architecture from meta-llama/Llama-2-70b-hf config.json."),
    ("TinyLlama", "1.1B"): ({"arch": ARCH["tinyllama-1.1b"]}, "TinyLlama 1.1B; architecture from TinyLlama/TinyLlama-1.1B config.json."),
}
cells = []
for line, commit, version in rows:
    r = row_cells(line)
    fam, mode, size, grp, act = r[0], r[1], r[2], r[3], r[4]
    m, mnote = MODELS[(fam, size)]
    cfg = {}
    if mode == "GPTQ":
        cfg.update({"weights": "int4-gptq", "groupSize": int(grp), "actOrder": act == "yes"})
    else:
        bpw = mode.split()[1]
        cfg["weights"] = f"exl2-{bpw}bpw"
    for col, gpu in ((5, "RTX 3090 Ti"), (6, "RTX 4090")):
        gid = "rtx3090ti" if col == 5 else "rtx4090"
        wid = "gptq" if mode == "GPTQ" else f"exl2-{mode.split()[1]}bpw"
        cells.append(cell(
            f"exl2-readme-{fam.lower()}-{size.lower()}-{wid}-{gid}", SRC,
            f"section 'Performance', table row '{fam} | {mode} | {size}', column '{r[col - 0] and ('3090Ti' if col == 5 else '4090')}'",
            header + "\n" + line, E, gpu, 1, "decode", num(r[col].replace("*", "")), "tokens/s",
            "generated tokens/s of one sequence", config=dict(cfg), engineVersion=f"{version} (row set in commit {commit})",
            note=("'Some quick tests to compare performance with ExLlama V1 ... speeds will vary across GPUs, with slow CPUs "
                  "still being a potential bottleneck' (README). " + mnote),
            unsure="batch size (presumably 1), prompt and generation lengths are not stated; rows from different commits and versions",
            **m))
write("firstparty-exllamav2", "ExLlamaV2 first-party figures: the README performance table (turboderp's own tests).",
      sources, cells)
