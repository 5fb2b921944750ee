"""
Independent figures for the GPU check (issue 14), taken with PyTorch and CUDA events in the
same command as pipeDejavu's profile: a large GEMM's TFLOP/s (bf16 and fp16), a device-to-device
copy's GB/s (bytes read plus written), and one transformer block of GPT-2 medium and of BERT-large
timed forward (inference, no grad) and forward plus backward (training), in bf16.

Prints one JSON object. Without CUDA it says so ({"cuda": false, ...}) and times nothing.
Usage: python3 torch_reference.py [--device cuda:0] [--quick]
"""
import json, math, sys, time

import torch
import torch.nn as nn
import torch.nn.functional as F

args = sys.argv[1:]
dev = args[args.index("--device") + 1] if "--device" in args else "cuda:0"
quick = "--quick" in args
out = {"torch": torch.__version__, "cudaVersion": torch.version.cuda, "cuda": torch.cuda.is_available(), "device": dev}
if not out["cuda"]:
    print(json.dumps(out))
    sys.exit(0)
torch.cuda.set_device(dev)
out["name"] = torch.cuda.get_device_name(dev)


def cuda_time_ms(fn, warmup=5, reps=20):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def gemm(dtype, n):
    x, y = torch.randn(n, n, device=dev, dtype=dtype), torch.randn(n, n, device=dev, dtype=dtype)
    ms = cuda_time_ms(lambda: x @ y)
    return {"n": n, "ms": ms, "tflops": 2 * n**3 / (ms / 1e3) / 1e12}


n = 4096 if quick else 8192
out["gemm"] = {"bf16": gemm(torch.bfloat16, n), "fp16": gemm(torch.float16, n), "fp32": gemm(torch.float32, n)}

elems = (1 << 26) if quick else (1 << 28)
src, dst = torch.empty(elems, device=dev, dtype=torch.float32), torch.empty(elems, device=dev, dtype=torch.float32)
ms = cuda_time_ms(lambda: dst.copy_(src))
out["copyD2D"] = {"bytes": 2 * 4 * elems, "ms": ms, "GBps": 2 * 4 * elems / (ms / 1e3) / 1e9}


class Block(nn.Module):
    """Pre-LN (GPT-2) or post-LN (BERT) transformer block: attention and a 4x GELU MLP."""

    def __init__(self, d, heads, causal, pre_ln):
        super().__init__()
        self.heads, self.causal, self.pre_ln = heads, causal, pre_ln
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def attn(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return self.proj(y.transpose(1, 2).reshape(b, s, d))

    def forward(self, x):
        if self.pre_ln:
            x = x + self.attn(self.ln1(x))
            return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.fc2(F.gelu(self.fc1(x))))


def block_times(d, heads, seq, batch, causal, pre_ln):
    blk = Block(d, heads, causal, pre_ln).to(dev, torch.bfloat16)
    x = torch.randn(batch, seq, d, device=dev, dtype=torch.bfloat16, requires_grad=True)
    with torch.no_grad():
        inference = cuda_time_ms(lambda: blk(x))

    def train_step():
        blk(x).sum().backward()

    training = cuda_time_ms(train_step)
    return {"d": d, "heads": heads, "seq": seq, "batch": batch, "dtype": "bf16", "inferenceMs": inference, "trainingMs": training}


batch = 2 if quick else 8
out["layers"] = {
    "gpt2-medium": block_times(1024, 16, 1024, batch, True, True),
    "bert-large": block_times(1024, 16, 512, batch, False, False),
}
print(json.dumps(out))
