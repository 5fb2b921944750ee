import json, math, sys, time
JOB = json.loads("{\"config\":{\"label\":\"L8\",\"layers\":8,\"hidden\":768,\"heads\":12,\"kvHeads\":4,\"ffn\":2048,\"vocab\":8000,\"context\":512},\"threads\":[1,2,1,2],\"decode\":true,\"prompts\":[],\"warmupRuns\":3,\"minRuns\":30,\"budgetMs\":3000}")

if sys.argv[1:] == ["--job"]:
    print(json.dumps(JOB))
    sys.exit(0)
try:
    import torch
    import torch.nn.functional as F
except Exception as e:
    print(json.dumps({"type": "no-torch", "error": "%s: %s" % (type(e).__name__, e), "executable": sys.executable}))
    sys.exit(0)

c = JOB["config"]
L, h, H, KV, FF, V, CTX = c["layers"], c["hidden"], c["heads"], c["kvHeads"], c["ffn"], c["vocab"], c["context"]
d, g = h // H, H // KV
torch.manual_seed(0)

def w(i, o):
    return torch.randn(i, o) / math.sqrt(i)

class Block:
    def __init__(self):
        self.n1, self.n2 = torch.ones(h), torch.ones(h)
        self.wq, self.wk, self.wv, self.wo = w(h, h), w(h, KV * d), w(h, KV * d), w(h, h)
        self.wg, self.wu, self.wd = w(h, FF), w(h, FF), w(FF, h)
        self.kt = torch.randn(KV, d, CTX)
        self.v = torch.randn(KV, CTX, d)

blocks = [Block() for _ in range(L)]
emb, final_norm, head = torch.randn(V, h) * 0.5, torch.ones(h), w(h, V)
scale = 1.0 / math.sqrt(d)

def rms(x, weight):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * weight

def mlp(b, x):
    n = rms(x, b.n2)
    return x + torch.mm(F.silu(torch.mm(n, b.wg)) * torch.mm(n, b.wu), b.wd)

def step(tok):
    x = F.embedding(tok, emb)
    for b in blocks:
        n = rms(x, b.n1)
        q = torch.mm(n, b.wq).view(KV, g, d)
        k = torch.mm(n, b.wk).view(KV, d, 1)
        v = torch.mm(n, b.wv).view(KV, 1, d)
        s = torch.cat((torch.bmm(q, b.kt), torch.bmm(q, k)), 2)
        past, new = torch.split(torch.softmax(s * scale, -1), [CTX, 1], 2)
        a = torch.bmm(past, b.v) + torch.bmm(new, v)
        x = mlp(b, x + torch.mm(a.view(1, h), b.wo))
    return torch.mm(rms(x, final_norm), head)

def prefill(ids, P, mask, pos_q, pos_k):
    x = F.embedding(ids, emb)
    for b in blocks:
        n = rms(x, b.n1)
        q = (torch.mm(n, b.wq) * pos_q).view(P, KV, g, d).permute(1, 2, 0, 3).reshape(KV, g * P, d)
        k = (torch.mm(n, b.wk) * pos_k).view(P, KV, d).permute(1, 2, 0)
        v = torch.mm(n, b.wv).view(P, KV, d).transpose(0, 1)
        p = torch.softmax(torch.bmm(q, k) * scale + mask, -1)
        a = torch.bmm(p, v).view(KV, g, P, d).permute(2, 0, 1, 3).reshape(P, h)
        x = mlp(b, x + torch.mm(a, b.wo))
    return torch.mm(rms(x[-1:], final_norm), head)

def timed(fn):
    for _ in range(JOB["warmupRuns"]):
        fn()
    runs, start = [], time.perf_counter()
    while len(runs) < JOB["minRuns"] or (time.perf_counter() - start) * 1000 < JOB["budgetMs"] and len(runs) < 400:
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t) * 1e6)
    runs.sort()
    n = len(runs)
    return {"medianUs": (runs[(n - 1) // 2] + runs[n // 2]) / 2, "runs": n}

cells = []
import torch.profiler as tp
with torch.inference_mode():
    for threads in JOB["threads"]:
        torch.set_num_threads(threads)
        if JOB["decode"]:
            tok = torch.tensor([1])
            cells.append(dict(kind="decode", tokens=CTX, threads=threads, **timed(lambda: step(tok))))
        for P in JOB["prompts"]:
            ids = torch.arange(P) % V
            mask = torch.full((P, P), -1e9).triu(1).repeat(g, 1)
            pos_q, pos_k = torch.randn(P, h), torch.randn(P, KV * d)
            run = lambda: prefill(ids, P, mask, pos_q, pos_k)
            cells.append(dict(kind="prefill", tokens=P, threads=threads, **timed(run)))

params = sum(t.numel() for b in blocks for t in (b.n1, b.n2, b.wq, b.wk, b.wv, b.wo, b.wg, b.wu, b.wd))
params += emb.numel() + final_norm.numel() + head.numel()
cache = sum(b.kt.numel() + b.v.numel() for b in blocks)
print(json.dumps({"type": "result", "torch": torch.__version__, "params": params, "cacheValues": cache, "cells": cells}))
tok = torch.tensor([1])
with torch.inference_mode():
  for nt in [1,2]:
    torch.set_num_threads(nt)
    for _ in range(5): step(tok)
    with tp.profile(activities=[tp.ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(10): step(tok)
    print("threads", nt)
    print(prof.key_averages(group_by_input_shape=True).table(sort_by="self_cpu_time_total", row_limit=14))
