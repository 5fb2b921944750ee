import torch, time, os
os.sched_setaffinity(0,{0})
torch.set_grad_enabled(False); torch.set_num_threads(1)
ws=[torch.randn(768,2048) for _ in range(24)]; x=torch.randn(1,768)
def chain():
  for w in ws: torch.mm(x,w)
ts=[]
for _ in range(30):
  a=time.perf_counter(); chain(); ts.append(time.perf_counter()-a)
ts.sort(); print("mm chain 1t %.0f us" % (ts[15]*1e6/24))
