import torch, time, torch.nn.functional as F
torch.set_grad_enabled(False)
q=torch.ones(2,1,1); k=torch.ones(2,1,1)
def t(f,n=15):
  for _ in range(2): f()
  ts=[]
  for _ in range(n):
    a=time.perf_counter(); f(); ts.append(time.perf_counter()-a)
  ts.sort(); return ts[n//2]*1e6
for (M,K,N) in [(32,768,2048),(128,768,768),(1,768,2048),(64,256,256)]:
  a=torch.randn(M,K); w=torch.randn(K,N)
  for nt in [1,2,1,2]:
    torch.set_num_threads(nt)
    print(M,K,N,nt, "alone %.0f  woken %.0f  wake %.1f" % (t(lambda: a@w), t(lambda: (torch.bmm(q,k), a@w)), t(lambda: torch.bmm(q,k))), flush=True)
