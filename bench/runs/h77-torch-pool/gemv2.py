import numpy as np, time, os
os.sched_setaffinity(0,{0})
ws=[np.random.rand(768,2048).astype(np.float32) for _ in range(24)]; x=np.random.rand(768).astype(np.float32)
def chain():
  for w in ws: x@w
def t(f,n=40):
  for _ in range(3): f()
  ts=[]
  for _ in range(n):
    s=time.perf_counter(); f(); ts.append(time.perf_counter()-s)
  ts.sort(); return ts[n//2]*1e6/len(ws)
print("gemv 6MB distinct (DRAM) %.0f us" % t(chain))
