import torch, time, sys, math
torch.set_num_threads(1)
def bench(M, K, N, nw, reps=5):
    ws = [torch.randn(K, N) for _ in range(nw)]
    x = torch.randn(M, K)
    with torch.inference_mode():
        for w in ws: torch.mm(x, w)
        best = 1e9
        for _ in range(reps):
            t = time.perf_counter()
            for w in ws: torch.mm(x, w)
            best = min(best, (time.perf_counter() - t) / nw)
    return best * 1e6
for (M,K,N) in [(32,832,2240),(32,2240,832),(32,832,832),(128,832,2240),(128,320,896),(32,320,896),(8,832,2240)]:
    mb = K*N*4/2**20
    nw_cold = max(4, int(math.ceil(400 / mb)))
    hot = bench(M,K,N,1, reps=200); cold = bench(M,K,N,nw_cold); hot2 = bench(M,K,N,1, reps=200)
    fl = 2*M*K*N
    print(f"M={M} K={K} N={N} {mb:.1f}MiB hot {hot:.0f} {hot2:.0f} us ({fl/min(hot,hot2)/1e3:.0f} GF/s) cold x{nw_cold} {cold:.0f} us ({fl/cold/1e3:.0f} GF/s, {K*N*4/cold/1e3:.1f} GB/s) ratio {cold/min(hot,hot2):.2f}")
