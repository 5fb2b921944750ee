import torch, time, sys
torch.set_num_threads(int(sys.argv[1]))
Ws = [torch.randn(768, 768) for _ in range(24)]
pc = time.perf_counter
for M in (8, 128, 2048):
    x = torch.randn(M, 768)
    for rep in range(3):
        tg = tm = 0.0
        h = x
        for W in Ws:
            t0 = pc(); h = torch.nn.functional.gelu(h); t1 = pc(); h = h @ W; t2 = pc()
            h = h * 0.01
            tg += t1 - t0; tm += t2 - t1
        # gemm only
        t0 = pc(); h = x
        for W in Ws: h = h @ W
        ta = pc() - t0
    print(sys.argv[1], M, f"gelu {tg*1e3/24:.3f} gemm-after-gelu {tm*1e3/24:.3f} gemm-alone {ta*1e3/24:.3f} ms")
