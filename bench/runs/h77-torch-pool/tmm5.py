import torch, time, torch.nn.functional as F
torch.set_grad_enabled(False)
ws=[torch.randn(768,2048) for _ in range(24)]; x=torch.randn(1,768); s=torch.randn(4,3,513)
q=torch.randn(4,3,64); kt=torch.randn(4,64,512); k1=torch.randn(4,64,1)
def t(f,n=20):
  for _ in range(3): f()
  ts=[]
  for _ in range(n):
    a=time.perf_counter(); f(); ts.append(time.perf_counter()-a)
  ts.sort(); return ts[n//2]*1e6/24
variants = {
 'alone': lambda: [torch.mm(x,w) for w in ws],
 'softmax+mm': lambda: [(torch.softmax(s,-1), torch.mm(x,w)) for w in ws],
 'bmm+mm': lambda: [(torch.bmm(q,kt), torch.mm(x,w)) for w in ws],
 'tinybmm+mm': lambda: [(torch.bmm(q,k1), torch.mm(x,w)) for w in ws],
 'silu+mm': lambda: [(F.silu(x), torch.mm(x,w)) for w in ws],
 'mm+mm+softmax': lambda: [(torch.mm(x,w), torch.mm(x,w), torch.softmax(s,-1)) for w in ws[:12]],
}
for nt in [1,2,2]:
  torch.set_num_threads(nt)
  print(nt, "  ".join("%s %.0f" % (k, t(f)) for k,f in variants.items()))
