import torch, time, sys
torch.set_grad_enabled(False)
s=torch.randn(4,3,513); q=torch.randn(2,1,1); k1=torch.randn(2,1,1)
def t(f,n,cnt):
  for _ in range(3): f()
  ts=[]
  for _ in range(n):
    a=time.perf_counter(); f(); ts.append(time.perf_counter()-a)
  ts.sort(); return ts[n//2]*1e6/cnt
for (K,N,cnt) in [(512,512,128),(1024,1024,32),(768,2048,24),(2048,2048,8)]:
  ws=[torch.randn(K,N) for _ in range(cnt)]; x=torch.randn(1,K)
  for nt in [1,2]:
    torch.set_num_threads(nt)
    print(K,N,nt, "alone %.0f  bigsm %.0f  bmm2 %.0f" % (t(lambda: [torch.mm(x,w) for w in ws],15,cnt), t(lambda: [(torch.softmax(s,-1),torch.mm(x,w)) for w in ws],15,cnt), t(lambda: [(torch.bmm(q,k1),torch.mm(x,w)) for w in ws],15,cnt)), flush=True)
