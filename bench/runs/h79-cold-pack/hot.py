import torch, time, sys
torch.set_num_threads(1)
for s in sys.argv[1:]:
    M,K,N = map(int, s.split('x'))
    x, w = torch.randn(M,K), torch.randn(K,N)
    for _ in range(20): x @ w
    best = []
    for r in range(5):
        t=time.perf_counter()
        for _ in range(50): x @ w
        best.append((time.perf_counter()-t)/50*1e6)
    print(s, round(sorted(best)[2]))
