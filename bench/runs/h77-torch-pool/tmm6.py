import torch, time, torch.nn.functional as F
torch.set_grad_enabled(False)
ws=[torch.randn(512,512) for _ in range(128)]; x=torch.randn(1,512)
s=torch.randn(2,2); s8=torch.randn(2,1,8); q=torch.randn(2,1,1); k1=torch.randn(2,1,1)
def t(f,n=20):
  for _ in range(3): f()
  ts=[]
  for _ in range(n):
    a=time.perf_counter(); f(); ts.append(time.perf_counter()-a)
  ts.sort(); return ts[n//2]*1e6/128
variants = {
 'alone': lambda: [torch.mm(x,w) for w in ws],
 'sm2x2': lambda: [(torch.softmax(s,-1), torch.mm(x,w)) for w in ws],
 'sm2x1x8': lambda: [(torch.softmax(s8,-1), torch.mm(x,w)) for w in ws],
 'bmm2': lambda: [(torch.bmm(q,k1), torch.mm(x,w)) for w in ws],
 'sm2x2-only': lambda: [torch.softmax(s,-1) for w in ws],
 'bmm2-only': lambda: [torch.bmm(q,k1) for w in ws],
}
for nt in [1,2,1,2]:
  torch.set_num_threads(nt)
  print(nt, "  ".join("%s %.1f" % (k, t(f)) for k,f in variants.items()))
