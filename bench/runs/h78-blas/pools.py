import torch, time, os, sys
torch.set_num_threads(int(sys.argv[1]))
torch.manual_seed(0)
Ws = [torch.randn(768, 768) for _ in range(24)]
def run(M, kind):
    x = torch.randn(M, 768)
    def f():
        h = x
        for W in Ws:
            if kind != 'gemm': h = torch.nn.functional.gelu(h)
            if kind != 'gelu': h = h @ W
        return h
    f(); f()
    ts=[]
    for _ in range(7):
        t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)
    ts.sort(); return ts[3]*1e3
for M in (8, 32, 128, 512):
    print(sys.argv[1], os.environ.get('OPENBLAS_NUM_THREADS','-'), os.environ.get('OMP_WAIT_POLICY','-'), M, ' '.join(f"{k}={run(M,k):.1f}" for k in ('gemm','gelu','both')))
