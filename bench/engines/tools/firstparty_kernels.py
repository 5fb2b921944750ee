"""First-party kernel microbenchmarks (source with 'kernel', no 'engine'): CUTLASS int8 GEMM timings posted by the
vLLM kernel author who tuned them, FlashAttention (CuTe DSL) forward TFLOPS posted by a FlashAttention maintainer.
The schema needs an engine on every cell: the engine that ships the kernel (vLLM), said in each note.
Writes cells-firstparty-cutlass.json and cells-firstparty-flash-attention.json."""
import re
from fp_common import cell, write

CUT = "vllm-pr6848-cutlass-int8-l40s"
FA = "fa-pr2280-cute-sm100"
cut_sources = [{
    "id": CUT, "set": "calibration", "kernel": "cutlass",
    "title": "vLLM PR #6848 '[Kernel] Tuned int8 kernels for Ada Lovelace' (merged): cutlass_i8_i8_bf16_scaled_mm times on L40S "
             "for Llama-2-7B GEMM shapes", "repo": "vllm-project/vllm", "url": "https://github.com/vllm-project/vllm/pull/6848",
    "who": "varun-sundar-rabindranath (vLLM kernel contributor, author of the tuned configs) with vLLM's "
           "benchmarks/cutlass_benchmarks/w8a8_benchmarks.py; a first-party microbenchmark of the CUTLASS kernel vLLM ships"}]
fa_sources = [{
    "id": FA, "set": "calibration", "kernel": "flash-attention",
    "title": "Dao-AILab/flash-attention PR #2280 '[Cute,Sm100,Bwd] Fix and enable 2CTA path for hdim 128 backward' (merged), description",
    "repo": "Dao-AILab/flash-attention", "url": "https://github.com/Dao-AILab/flash-attention/pull/2280",
    "who": "jayhshah (FlashAttention maintainer, FlashAttention-3 co-author), the repository's benchmark output; first-party"}]

hdr = ("meta-llama/Llama-2-7b-hf-TP1 |   |   |  \n-- | -- | -- | --\n"
       "  | Tuned cutlass_i8_i8_bf16_scaled_mm (us) | Main cutlass_i8_i8_bf16_scaled_mm (us) | speedup")
rows = """MKN=(1x4096x12288) | 15.4 | 33.10 | 2.15
MKN=(1x4096x4096) | 9.4 | 31.40 | 3.34
MKN=(1x4096x22016) | 52.1 | 73.00 | 1.40
MKN=(1x11008x4096) | 17.9 | 76.50 | 4.27
MKN=(16x4096x12288) | 16.8 | 33.30 | 1.98
MKN=(16x4096x4096) | 9.7 | 31.40 | 3.24
MKN=(16x4096x22016) | 57.1 | 78.60 | 1.38
MKN=(16x11008x4096) | 18.2 | 76.60 | 4.21
MKN=(32x4096x12288) | 17.9 | 33.20 | 1.85
MKN=(32x4096x4096) | 9.9 | 31.40 | 3.17
MKN=(32x4096x22016) | 65.2 | 83.20 | 1.28
MKN=(32x11008x4096) | 19.8 | 76.60 | 3.87
MKN=(64x4096x12288) | 22.5 | 34.30 | 1.52
MKN=(64x4096x4096) | 12.9 | 31.40 | 2.43
MKN=(64x4096x22016) | 81.2 | 94.20 | 1.16
MKN=(64x11008x4096) | 26.2 | 76.80 | 2.93
MKN=(128x4096x12288) | 37.2 | 36.30 | 0.98
MKN=(128x4096x4096) | 19.7 | 31.60 | 1.60
MKN=(128x4096x22016) | 111.1 | 115.60 | 1.04
MKN=(128x11008x4096) | 44.3 | 76.90 | 1.74"""
cut_cells = []
for line in rows.splitlines():
    m = re.match(r"MKN=\((\d+)x(\d+)x(\d+)\) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+)", line)
    M, K, N = int(m.group(1)), int(m.group(2)), int(m.group(3))
    tuned, main = float(m.group(4)), float(m.group(5))
    cut_cells.append(cell(
        f"cutlass-i8-l40s-m{M}-k{K}-n{N}", CUT, f"description, table 'meta-llama/Llama-2-7b-hf-TP1', row 'MKN=({M}x{K}x{N})', column 'Tuned ... (us)'",
        hdr + "\n" + line, "vllm", "L40S", 1, "decode" if M <= 64 else "prefill", tuned, "us",
        f"time of one int8 x int8 -> bf16 scaled GEMM, M={M} tokens, K={K}, N={N}",
        config={"weights": "int8", "activations": "int8", "output": "bf16", "M": M, "K": K, "N": N},
        engineVersion="PR #6848 (merged July 2024, vLLM ~0.5.3)", kernelCell=True,
        note=(f"Kernel microbenchmark (CUTLASS int8 GEMM as shipped in vLLM; engine set to vllm because the schema needs one). "
              f"`python3 benchmarks/cutlass_benchmarks/w8a8_benchmarks.py --dtype int8 model_bench --batch-size {{1,16,...,512}}` on "
              f"'L40S x 1'. Before tuning (main): {main:g} us. Kind: 'decode' for M <= 64 tokens, 'prefill' above (a GEMM, not a "
              f"whole step). Shapes are Llama-2-7B's fused QKV (N=12288), O (4096), gate-up (22016) and down (K=11008) projections."),
        unsure="read from a pasted spreadsheet in the PR description; MKN taken as M x K x N (consistent with the Llama-2-7B shapes)"))

fa_q = """### headdim = 128, causal = False, seqlen = 8192, batch_size = 4, nheads = 16, nheads_kv = 16, varlen = False ###
FA Python fwd: 1.433ms, 1534.8 TFLOPS
...
### headdim = 128, causal = True, seqlen = 8192, batch_size = 4, nheads = 16, nheads_kv = 16, varlen = False ###
FA Python fwd: 0.775ms, 1418.1 TFLOPS"""
fa_cells = []
for causal, ms, tf in ((False, 1.433, 1534.8), (True, 0.775, 1418.1)):
    for unit, val, metric in (("ms", ms, "forward time"), ("TFLOPS", tf, "forward TFLOPS (the repository's FLOP formula)")):
        fa_cells.append(cell(
            f"fa-cute-sm100-fwd-hd128-s8192-b4-h16-{'causal' if causal else 'noncausal'}-{unit.lower()}", FA,
            f"description, block 'headdim = 128, causal = {causal}, seqlen = 8192, batch_size = 4', line 'FA Python fwd'",
            fa_q, "vllm", "B200", 1, "prefill", val, unit, metric, kernelCell=True,
            config={"headDim": 128, "causal": causal, "seqlen": 8192, "batch": 4, "heads": 16, "kvHeads": 16, "varlen": False,
                    "dtype": "bf16 (benchmark default, not stated)"},
            engineVersion="flash-attention PR #2280 (February 2026), CuTe DSL ('FA Python') kernels",
            note=("Kernel microbenchmark (FlashAttention forward, CuTe DSL implementation for SM100). Engine set to vllm because the "
                  "schema needs one: vLLM ships FlashAttention through its vllm-project/flash-attention fork. The PR is about the "
                  "backward pass; the forward line is the same run's baseline."),
            unsure="the GPU is not named: '[Cute,Sm100,...]' = a Blackwell SM100 part, B200 assumed; dtype not stated"))

write("firstparty-cutlass", "First-party kernel microbenchmark: CUTLASS int8 scaled GEMM as shipped and tuned in vLLM (kernel "
      "source, no engine; cells carry engine vllm only because the schema needs one).", cut_sources, cut_cells)
write("firstparty-flash-attention", "First-party kernel microbenchmark: FlashAttention's own benchmark output posted by its "
      "maintainer (kernel source, no engine; cells carry engine vllm only because the schema needs one).", fa_sources, fa_cells)
