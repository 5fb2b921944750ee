import torch, time
torch.set_grad_enabled(False)
ws=[torch.randn(768,2048) for _ in range(24)]; x=torch.randn(1,768); s=torch.randn(4,3,513)
def chain():
  for w in ws: torch.mm(x,w)
def chain_sm():
  for w in ws: torch.softmax(s,-1); torch.mm(x,w)
def sm():
  for w in ws: torch.softmax(s,-1)
def t(f,n=30):
  for _ in range(3): f()
  ts=[]
  for _ in range(n):
    a=time.perf_counter(); f(); ts.append(time.perf_counter()-a)
  ts.sort(); return ts[n//2]*1e6/24
for nt in [1,2,1,2]:
  torch.set_num_threads(nt)
  print(nt, "mm chain %.0f  softmax chain %.1f  softmax+mm chain %.0f" % (t(chain), t(sm), t(chain_sm)))
