"""Shared helpers for the first-party engine figure files (bench/engines/cells-firstparty-*.json).

Each engine's script lists its sources and the rows quoted verbatim from them, and writes one
JSON file in the schema of bench/engines/cells.ts. Run from anywhere: paths are resolved from
this file. Plain python3, no dependencies.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES_DIR = os.path.dirname(HERE)

RULE = (
    "Sources are split once, before any tuning (bench/engines/cells.ts): 'calibration' = an engine's "
    "own first-party publication (its repository, docs, blog, or a benchmark its maintainers posted in "
    "a pull request), usable to fit that engine's rules only; or a first-party kernel microbenchmark "
    "('kernel' set). 'held-out' = every third-party measurement (including one engine's team measuring "
    "another engine), never fitted on."
)

_ids = set()


def cell(id, source, where, quote, engine, gpu, gpus, kind, value, unit, metric, *, model=None,
         arch=None, config=None, engineVersion=None, note=None, unsure=None, kernelCell=False):
    id = id.lower()
    assert re.match(r"^[a-z0-9][a-z0-9._-]*$", id), id
    assert id not in _ids, f"duplicate id {id}"
    _ids.add(id)
    assert kind in ("prefill", "decode", "ttft", "tpot", "itl", "e2e", "throughput"), kind
    assert value > 0, (id, value)
    assert kernelCell or (model is None) != (arch is None), f"{id}: give model xor arch"
    c = {"id": id, "source": source, "where": where, "quote": quote, "engine": engine}
    if engineVersion:
        c["engineVersion"] = engineVersion
    c.update({"gpu": gpu, "gpus": gpus, "kind": kind})
    if model:
        c["model"] = model
    if arch:
        c["arch"] = arch
    c["config"] = config or {}
    c.update({"value": value, "unit": unit, "metric": metric})
    if note:
        c["note"] = note
    if unsure:
        c["unsure"] = unsure
    return c


def with_tool(c, tool):
    """The cell with the benchmark tool it came from (bench/engines/bench-tools.ts), placed after its source."""
    return {"id": c["id"], "source": c["source"], "tool": tool, **{k: v for k, v in c.items() if k not in ("id", "source")}}


def write(name, about, sources, cells):
    src_ids = {s["id"] for s in sources}
    for c in cells:
        assert c["source"] in src_ids, (c["id"], c["source"])
    path = os.path.join(ENGINES_DIR, f"cells-{name}.json")
    with open(path, "w") as f:
        json.dump({"about": about + " " + RULE, "sources": sources, "cells": cells}, f, indent=2,
                  ensure_ascii=False)
        f.write("\n")
    print(f"{path}: {len(sources)} sources, {len(cells)} cells")


def row_cells(line):
    """The cells of a markdown table row, stripped."""
    return [x.strip() for x in line.strip().strip("|").split("|")]


def num(s):
    """First number in a table cell ('7979.85 ± 114.18' -> 7979.85, '1,486' -> 1486)."""
    m = re.search(r"-?[0-9][0-9,]*\.?[0-9]*", s)
    return float(m.group(0).replace(",", ""))


# Architectures from the models' Hugging Face config.json (cited where used).
ARCH = {
    # meta-llama/Llama-2-70b-hf config.json
    "llama-2-70b": {"family": "llama", "layers": 80, "hidden": 8192, "heads": 64, "kvHeads": 8,
                    "ffn": 28672, "vocab": 32000, "context": 4096},
    # meta-llama/Meta-Llama-3-70B config.json (Llama 3.1 70B differs in context and rope scaling only)
    "llama-3-70b": {"family": "llama", "layers": 80, "hidden": 8192, "heads": 64, "kvHeads": 8,
                    "ffn": 28672, "vocab": 128256, "context": 8192},
    # meta-llama/Llama-3.1-405B config.json
    "llama-3.1-405b": {"family": "llama", "layers": 126, "hidden": 16384, "heads": 128, "kvHeads": 8,
                       "ffn": 53248, "vocab": 128256, "context": 131072},
    # huggyllama/llama-30b config.json (LLaMA 1 "33B")
    "llama-33b": {"family": "llama", "layers": 60, "hidden": 6656, "heads": 52, "ffn": 17920,
                  "vocab": 32000, "context": 2048},
    # openlm-research/open_llama_3b config.json
    "openllama-3b": {"family": "llama", "layers": 26, "hidden": 3200, "heads": 32, "ffn": 8640,
                     "vocab": 32000, "context": 2048},
    # codellama/CodeLlama-34b-hf config.json
    "codellama-34b": {"family": "llama", "layers": 48, "hidden": 8192, "heads": 64, "kvHeads": 8,
                      "ffn": 22016, "vocab": 32000, "context": 16384},
    # codellama/CodeLlama-7b-hf config.json
    "codellama-7b": {"family": "llama", "layers": 32, "hidden": 4096, "heads": 32, "ffn": 11008,
                     "vocab": 32016, "context": 16384},
    # TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json
    "tinyllama-1.1b": {"family": "llama", "layers": 22, "hidden": 2048, "heads": 32, "kvHeads": 4,
                       "ffn": 5632, "vocab": 32000, "context": 2048},
    # Qwen/Qwen2.5-Coder-7B config.json (same dimensions as the catalog's qwen2.5-7b)
    "qwen2.5-coder-7b": {"family": "llama", "layers": 28, "hidden": 3584, "heads": 28, "kvHeads": 4,
                         "ffn": 18944, "vocab": 152064, "context": 32768},
}
