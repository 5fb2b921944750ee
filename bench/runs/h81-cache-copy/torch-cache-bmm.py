# PyTorch (Debian's 1.13, OpenBLAS) at 1 thread: a read-once MHA decode step's cache products, [H,1,64] x [H,64,N]
# (scores) and [H,1,N] x [H,N,64] (values), over distinct caches read from memory (a ring larger than the L3),
# against the same bytes read by a GEMV over distinct weights. Prints GB/s (cache bytes / time), median of rounds.
# Usage: /usr/bin/python3 torch-cache-bmm.py
import statistics, time, torch
torch.set_num_threads(1)
RING_BYTES = 256 * 2**20  # well past the L3 of the VM
def ring(make, nbytes):
    n = max(4, RING_BYTES // nbytes)
    return [make() for _ in range(n)]
def rate(fn, items, nbytes, rounds=7):
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for x in items: fn(x)
        dt = time.perf_counter() - t0
        out.append(nbytes * len(items) / dt / 1e9)
    return statistics.median(out)
with torch.inference_mode():
    for heads, ctx in [(10, 2700), (8, 3500), (6, 3000), (12, 1800), (8, 1024), (16, 512)]:
        kt = ring(lambda: torch.randn(heads, 64, ctx), heads * 64 * ctx * 4)
        q = torch.randn(heads, 1, 64)
        scores = rate(lambda k: torch.bmm(q, k), kt, heads * 64 * ctx * 4)
        v = ring(lambda: torch.randn(heads, ctx, 64), heads * 64 * ctx * 4)
        p = torch.randn(heads, 1, ctx)
        values = rate(lambda m: torch.bmm(p, m), v, heads * 64 * ctx * 4)
        w = ring(lambda: torch.randn(64 * heads, ctx), heads * 64 * ctx * 4)
        x = torch.randn(1, 64 * heads)
        gemv = rate(lambda m: torch.mm(x, m), w, heads * 64 * ctx * 4)
        print(f"H={heads} ctx={ctx} panel {64*ctx*4/1024:.0f} KiB: scores {scores:.1f} GB/s, values {values:.1f} GB/s, "
              f"same bytes as one [1,{64*heads}]x[{64*heads},{ctx}] product {gemv:.1f} GB/s")
