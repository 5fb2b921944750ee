"""The Python side of the PyTorch backend (adapters/torch/torch-runner.ts).

One long-lived child that imports torch once (seconds) and then times the kernel catalogue's ops
as PyTorch users run them, in eager mode. JSON lines on stdin and stdout; stderr is for Python's
own complaints. Messages: adapters/torch/torch-protocol.ts.

Each op is what the ONNX kernel of the same spec computes (core/kernels/build.ts):
nn.Linear-style Gemm, convolutions as ONNX's Conv kernel has them (floor(R/2) padding unless
valid, 1-D when d1, transposed when transpose, + ReLU when act = 1), x + c for a scalar Add, erf GELU,
last-axis reductions, softmax and layer norm, attention as scaled_dot_product_attention (or
its matmul-softmax-matmul form where torch has none), a real transpose (contiguous copy),
casts between fp32 and fp16, host-device copies, pools, concat on axis 1 and nearest
upsampling; at more than one CPU thread a row of distinct products wakes the thread pool before
each product, as a decode step does. Overhead chains (dependent adds on 16 elements, 1..N of them) measure what one eager
op costs beyond its work: PyTorch's dispatch from Python, inside every kernel's time.
The ready message names the BLAS the products run on and its own thread pool (blas_pool): OpenBLAS's
pthreads build runs them on a pool of its own beside PyTorch's OpenMP pool (docs/profiling.md).

Timing: on a GPU, CUDA events around `inner` back-to-back calls (inner chosen so one
sample spans about 200 us), synchronized after each sample; on the CPU, perf_counter around
the same. A sample is the time per call: what the op costs in an eager PyTorch program,
launch included when the launch is the bottleneck. The stopping rule is the profiler's
(core/profiler/timing-stats.ts shouldStop), mirrored here.

PIPEDEJAVU_TORCH_FAULT=gpu-lost-after:N (tests) makes the (N+1)th kernel fail the way a GPU
that fell off the bus does.

The build copies this file to dist/python/ (scripts/build.mjs); the runner finds it with
adapters/python/python-script.ts.
"""
import ctypes, json, math, os, sys, time

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

try:
    import torch
    import torch.nn.functional as F
except Exception as e:
    send({"type": "no-torch", "error": "%s: %s" % (type(e).__name__, e), "executable": sys.executable})
    sys.exit(0)

HAS_SDPA = hasattr(F, "scaled_dot_product_attention")
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}

def blas_pool():
    """The BLAS library the products run on and its own pool (core/profiler/blas-pool.ts); None: none loaded."""
    if torch.backends.mkl.is_available():
        return {"library": "MKL", "threading": "openmp", "threads": None}
    try:
        with open("/proc/self/maps") as f:
            libs = sorted({l.split()[-1] for l in f if "blas" in l.lower() and ".so" in l})
    except OSError:
        libs = []
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
            par, num, cfg = lib.openblas_get_parallel, lib.openblas_get_num_threads, lib.openblas_get_config
        except (OSError, AttributeError):
            continue
        cfg.restype = ctypes.c_char_p
        name = " ".join((cfg() or b"OpenBLAS").decode("ascii", "replace").split(" ")[:2])
        kind = {0: "serial", 1: "pthreads", 2: "openmp"}.get(int(par()), "unknown")
        return {"library": name[:40], "threading": kind, "threads": int(num())}
    return {"library": "unknown", "threading": "unknown", "threads": None} if libs else None

def hello():
    cuda = torch.cuda.is_available()
    devices = []
    if cuda:
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            devices.append({"index": i, "name": p.name, "memoryBytes": p.total_memory,
                            "uuid": str(getattr(p, "uuid", "")) or None})
    send({"type": "ready", "torch": torch.__version__, "cuda": cuda, "cudaVersion": torch.version.cuda,
          "devices": devices, "sdpa": HAS_SDPA, "threads": torch.get_num_threads(),
          "blas": blas_pool(), "python": sys.version.split()[0], "executable": sys.executable})

def rnd(shape, dt, dev):
    return torch.randn(*shape, device=dev).to(dt)

def attention(q, k, v):
    if HAS_SDPA:
        return F.scaled_dot_product_attention(q, k, v)
    return torch.softmax((q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1])), dim=-1) @ v

UNARY = {
    "Relu": F.relu, "Sigmoid": torch.sigmoid, "Gelu": F.gelu, "Div": lambda x: x / 6, "Pow": lambda x: x ** 2,
    "Clip": lambda x: torch.clamp(x, 0, 6), "Sqrt": torch.sqrt, "Exp": torch.exp, "Log": torch.log,
    "Tanh": torch.tanh, "Erf": torch.erf, "HardSigmoid": lambda x: torch.clamp(0.2 * x + 0.5, 0, 1),
    "HardSwish": F.hardswish, "LeakyRelu": lambda x: F.leaky_relu(x, 0.01), "Softplus": F.softplus,
}

SCALAR_OPERAND = {"Add": 3.0, "Mul": 1.25}

def conv(s, dt, dev):
    """ONNX's Conv kernel (core/kernels/build.ts): floor(R/2) padding (none when valid = 1), d1 = 1
    a 1-D conv over [N, C, H], transpose = 1 a ConvTranspose (weight [C, K/groups, R, S], unpadded),
    act = 1 a ReLU after it."""
    g, d1, tr = s["groups"], s.get("d1", 0) == 1, s.get("transpose", 0) == 1
    x = rnd((s["N"], s["C"], s["H"]) if d1 else (s["N"], s["C"], s["H"], s["W"]), dt, dev)
    w_out, w_in = (s["C"], s["K"] // g) if tr else (s["K"], s["C"] // g)
    w = rnd((w_out, w_in, s["R"]) if d1 else (w_out, w_in, s["R"], s["S"]), dt, dev)
    pad = (0,) if d1 else (0, 0)
    if not (tr or s.get("valid", 0) == 1):
        pad = (s["R"] // 2,) if d1 else (s["R"] // 2, s["S"] // 2)
    st = s["stride"]
    if tr:
        f = F.conv_transpose1d if d1 else F.conv_transpose2d
        run = lambda: f(x, w, None, st, pad, 0, g)
    else:
        f = F.conv1d if d1 else F.conv2d
        run = lambda: f(x, w, None, st, pad, 1, g)
    if s.get("act", 0) == 1:
        return lambda: F.relu(run())
    return run

def NO_WAKE():
    pass

def pool_wake(dev):
    """What wakes torch's CPU thread pool (a parallel bmm over two items); nothing on a GPU or at 1 thread."""
    if dev.startswith("cuda") or torch.get_num_threads() < 2:
        return NO_WAKE
    q, k = torch.ones((2, 1, 1)), torch.ones((2, 1, 1))
    return lambda: torch.bmm(q, k)

WAKE_US = {}

# A row of products this thin is a decode step's stream of matrix-vector products.
GEMV_ROWS = 4

def wake_us(dev, rule):
    """What one pool wake costs by itself (µs, median), once per thread count: taken off the products' samples."""
    n = torch.get_num_threads()
    if n not in WAKE_US:
        samples, _, _, _ = time_op(pool_wake(dev), dev, rule)
        WAKE_US[n] = quantile(sorted(kept(samples)), 0.5)
    return WAKE_US[n]

def build(op, s, dt, dev):
    """A no-argument callable running the op once on tensors made here."""
    if op == "MatMul":
        if s["B"] == 1 and s.get("distinct", 1) > 1:
            # A row of linear layers, each its own weight (ONNX's MatMul `distinct`): a decode step's stream.
            # On the CPU with a thread pool, each product follows a two-item batched matmul, the
            # smallest op torch splits across its OpenMP threads: a decode step's products run
            # right after its parallel ops (softmax, bmm), with the pool just woken. On the
            # project's 2-vCPU Zen 4 VM a product there could wait out a 4 ms scheduler tick, and
            # products of 4 MiB and more ran 2-5x slower (docs/profiling.md); the wake's own
            # time is taken off (run). A row of many-row products (a prompt's, weights read from
            # memory) is timed as its product alone is, without the wake: the two are compared.
            a = rnd((s["M"], s["K"]), dt, dev)
            ws = [rnd((s["K"], s["N"]), dt, dev) / math.sqrt(s["K"]) for _ in range(s["distinct"])]
            wake = pool_wake(dev) if s["M"] <= GEMV_ROWS else NO_WAKE
            def row():
                h = a
                for w in ws:
                    wake()
                    h = h @ w
                return h
            if wake is not NO_WAKE:
                row.wakes = len(ws)
            return row
        if s["B"] == 1:
            a, w = rnd((s["M"], s["K"]), dt, dev), rnd((s["K"], s["N"]), dt, dev)
            return lambda: a @ w
        if s.get("distinct", 1) > 1:
            # A decode step's attention layer after layer: K^T [B,K,N] and V [B,N,K] in turn, each its own cache.
            a = rnd((s["B"], s["M"], s["K"]), dt, dev)
            dims = [(s["K"], s["N"]), (s["N"], s["K"])]
            cs = [rnd((s["B"],) + dims[i % 2], dt, dev) / math.sqrt(dims[i % 2][0]) for i in range(s["distinct"])]
            def layers():
                h = a
                for c in cs:
                    h = torch.bmm(h, c)
                return h
            return layers
        a, b = rnd((s["B"], s["M"], s["K"]), dt, dev), rnd((s["B"], s["K"], s["N"]), dt, dev)
        return lambda: torch.bmm(a, b)
    if op == "Gemm":
        a, w, b = rnd((s["M"], s["K"]), dt, dev), rnd((s["N"], s["K"]), dt, dev), rnd((s["N"],), dt, dev)
        return lambda: F.linear(a, w, b)
    if op == "Conv":
        return conv(s, dt, dev)
    if op in ("Add", "Mul"):
        # scalar = 1: x + c with a constant c, as ONNX's kernel (HardSwish's x + 3, a scale), not a second tensor.
        a = rnd((s["n"],), dt, dev)
        b = SCALAR_OPERAND[op] if s.get("scalar", 0) == 1 else rnd((s["n"],), dt, dev)
        return (lambda: a + b) if op == "Add" else (lambda: a * b)
    if op in UNARY:
        x = rnd((s["n"],), dt, dev)
        f = UNARY[op]
        return lambda: f(x)
    if op == "SkipLayerNormalization":
        x, r = rnd((1, s["rows"], s["cols"]), dt, dev), rnd((1, s["rows"], s["cols"]), dt, dev)
        w, b = torch.ones(s["cols"], device=dev, dtype=dt), torch.zeros(s["cols"], device=dev, dtype=dt)
        return lambda: F.layer_norm(x + r, (s["cols"],), w, b, 1e-5)
    if op in ("ReduceSum", "ReduceMean", "Softmax", "LayerNormalization", "Transpose"):
        x = rnd((s["rows"], s["cols"]), dt, dev)
        if op == "LayerNormalization":
            w, b = torch.ones(s["cols"], device=dev, dtype=dt), torch.zeros(s["cols"], device=dev, dtype=dt)
            return lambda: F.layer_norm(x, (s["cols"],), w, b, 1e-5)
        return {"ReduceSum": lambda: x.sum(-1), "ReduceMean": lambda: x.mean(-1),
                "Softmax": lambda: torch.softmax(x, dim=-1), "Transpose": lambda: x.t().contiguous()}[op]
    if op == "Attention":
        shape = (s["batch"], s["heads"], s["seq"], s["headDim"])
        q, k, v = rnd(shape, dt, dev), rnd(shape, dt, dev), rnd(shape, dt, dev)
        return lambda: attention(q, k, v)
    if op == "Cast":
        x = rnd((s["n"],), dt, dev)
        to = torch.float16 if dt == torch.float32 else torch.float32
        return lambda: x.to(to)
    if op == "CopyH2D":
        x = rnd((s["n"],), dt, "cpu").pin_memory()
        return lambda: x.to(dev, non_blocking=False)
    if op == "CopyD2H":
        x = rnd((s["n"],), dt, dev)
        return lambda: x.to("cpu")
    if op in ("MaxPool", "AveragePool"):
        x = rnd((s["N"], s["C"], s["H"], s["W"]), dt, dev)
        r, st, p = s["R"], s["stride"], (s["R"] - 1) // 2
        if op == "MaxPool":
            return lambda: F.max_pool2d(x, r, st, p)
        return lambda: F.avg_pool2d(x, r, st, p, count_include_pad=False)
    if op == "GlobalAveragePool":
        x = rnd((s["N"], s["C"], s["H"], s["W"]), dt, dev)
        return lambda: F.adaptive_avg_pool2d(x, 1)
    if op == "Concat":
        parts = [rnd((s["rows"], s["cols"] // s["parts"]), dt, dev) for _ in range(s["parts"])]
        return lambda: torch.cat(parts, 1)
    if op == "Resize":
        x = rnd((s["N"], s["C"], s["H"], s["W"]), dt, dev)
        return lambda: F.interpolate(x, scale_factor=s["scale"], mode="nearest")
    if op in ("LSTM", "GRU"):
        layer = (torch.nn.LSTM if op == "LSTM" else torch.nn.GRU)(s["input"], s["hidden"]).to(dev, dt)
        x, h = rnd((s["seq"], s["batch"], s["input"]), dt, dev), rnd((1, s["batch"], s["hidden"]), dt, dev)
        state = (h, torch.zeros_like(h)) if op == "LSTM" else h
        return lambda: layer(x, state)
    return None

# The profiler's stopping rule (timing-stats.ts), mirrored.
def quantile(sv, q):
    pos = (len(sv) - 1) * q
    lo, hi = int(math.floor(pos)), int(math.ceil(pos))
    return sv[lo] + (sv[hi] - sv[lo]) * (pos - lo)

def kept(values):
    if len(values) < 5:
        return list(values)
    sv = sorted(values)
    med = quantile(sv, 0.5)
    mad = quantile(sorted(abs(v - med) for v in sv), 0.5)
    limit = min(med + 6 * max(mad, med * 0.01), med * 3)
    return [v for v in values if v <= limit]

def ci_half_width(values):
    sv = sorted(kept(values))
    n = len(sv)
    if n < 6:
        return float("inf")
    spread = 0.98 * math.sqrt(n)
    lo, hi = max(0, int(math.floor(n / 2 - spread))), min(n - 1, int(math.ceil(n / 2 + spread)))
    med = quantile(sv, 0.5)
    return float("inf") if med <= 0 else (sv[hi] - sv[lo]) / (2 * med)

def should_stop(samples, elapsed_ms, rule):
    if len(samples) >= rule["maxRepetitions"]:
        return "max-repetitions"
    if elapsed_ms < rule.get("minDurationMs", 0):
        return None
    if len(samples) < rule["minRepetitions"]:
        return "budget" if elapsed_ms >= rule["budgetMs"] * 4 and len(samples) >= 3 else None
    if ci_half_width(samples) <= rule["targetCi"]:
        return "converged"
    return "budget" if elapsed_ms >= rule["budgetMs"] else None

SAMPLE_TARGET_US = 200.0

def timer(dev):
    """(start, stop) -> microseconds per call; CUDA events on a GPU, perf_counter on the CPU."""
    if dev.startswith("cuda"):
        def sample(fn, inner):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            for _ in range(inner):
                fn()
            b.record()
            b.synchronize()
            return a.elapsed_time(b) * 1000.0 / inner
        return sample
    def sample(fn, inner):
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        return (time.perf_counter() - t) * 1e6 / inner
    return sample

def sync(dev):
    if dev.startswith("cuda"):
        torch.cuda.synchronize(dev)

def time_op(fn, dev, rule):
    sample = timer(dev)
    for _ in range(max(1, rule["warmupRuns"])):
        fn()
    sync(dev)
    one = sample(fn, 1)
    inner = max(1, min(1000, int(SAMPLE_TARGET_US / max(one, 0.01))))
    samples, walls = [], []
    start = time.perf_counter()
    while True:
        w = time.perf_counter()
        samples.append(sample(fn, inner))
        walls.append((time.perf_counter() - w) * 1e6 / inner)
        stop = should_stop(samples, (time.perf_counter() - start) * 1000.0, rule)
        if stop:
            return samples, walls, inner, stop

def classify(e):
    text = "%s: %s" % (type(e).__name__, e)
    if isinstance(e, MemoryError) or "out of memory" in text.lower() or type(e).__name__ == "OutOfMemoryError":
        return "out-of-memory", text
    if "not implemented for" in text or "NotImplementedError" in text or "Could not run" in text:
        return "unsupported", text
    if "CUDA error" in text or "CUDA driver" in text or "no CUDA GPUs" in text or "cuda runtime error" in text:
        return "ep-unavailable", "the GPU stopped answering (%s)" % text.splitlines()[0]
    return "failed", text.splitlines()[0] if text else type(e).__name__

def chain(n, dt, dev):
    """n dependent adds on 16 elements: each op's work is nothing, its eager dispatch all there is."""
    x, b = rnd((16,), dt, dev), rnd((16,), dt, dev)
    def fn():
        y = x
        for _ in range(n):
            y = torch.add(y, b)
        return y
    return fn

def overhead(job):
    """Chains of 1..N tiny ops timed as eager code runs them: per length, the lowest of its rounds' medians."""
    dev = job["device"]
    if not dev.startswith("cuda") and job.get("threads"):
        torch.set_num_threads(int(job["threads"]))
    best = {}
    try:
        with torch.no_grad():
            for _ in range(max(1, job.get("rounds", 1))):
                for n in job["lengths"]:
                    samples, _, _, _ = time_op(chain(n, torch.float32, dev), dev, job["rule"])
                    med = quantile(sorted(kept(samples)), 0.5)
                    best[n] = min(best.get(n, med), med)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        kind, text = classify(e)
        return {"ok": False, "kind": kind, "error": text}
    return {"ok": True, "points": [{"nodes": n, "medianUs": best[n]} for n in job["lengths"]], "traceNodeUs": None}

FAULT = os.environ.get("PIPEDEJAVU_TORCH_FAULT", "")
runs = 0

def run(job):
    global runs
    dev, spec = job["device"], job["spec"]
    if dev.startswith("cuda"):
        if not torch.cuda.is_available():
            return {"ok": False, "kind": "ep-unavailable",
                    "error": "PyTorch %s in %s has no CUDA (torch.cuda.is_available() is False)" % (torch.__version__, sys.executable)}
        index = int(dev.split(":")[1])
        if index >= torch.cuda.device_count():
            return {"ok": False, "kind": "ep-unavailable",
                    "error": "PyTorch sees %d CUDA device(s), not %s" % (torch.cuda.device_count(), dev)}
        torch.cuda.set_device(index)
    elif job.get("threads"):
        torch.set_num_threads(int(job["threads"]))
    if FAULT.startswith("gpu-lost-after:") and runs >= int(FAULT.split(":")[1]):
        return {"ok": False, "kind": "ep-unavailable",
                "error": "the GPU stopped answering (RuntimeError: CUDA error: unspecified launch failure)"}
    runs += 1
    dt = DTYPES.get(spec["dtype"])
    try:
        fn = build(spec["op"], spec["shape"], dt, dev) if dt is not None else None
        if fn is None:
            return {"ok": False, "kind": "unsupported", "error": "no PyTorch form of %s %s" % (spec["op"], spec["dtype"])}
        with torch.no_grad():
            samples, walls, inner, stop = time_op(fn, dev, job["rule"])
            wakes = getattr(fn, "wakes", 0)
            if wakes:
                cost = wakes * wake_us(dev, job["rule"])
                samples = [max(0.0, x - cost) for x in samples]
                walls = [max(0.0, x - cost) for x in walls]
        return {"ok": True, "kernelUs": samples, "wallUs": walls, "inner": inner, "stop": stop}
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        kind, text = classify(e)
        if kind == "out-of-memory" and dev.startswith("cuda"):
            torch.cuda.empty_cache()
        return {"ok": False, "kind": kind, "error": text}
    finally:
        fn = None

def main():
    """Says hello, then answers each run request on stdin until exit (or stdin closes)."""
    hello()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if msg.get("type") == "exit":
            break
        if msg.get("type") == "run":
            out = run(msg["job"])
            out["id"] = msg["job"]["id"]
            send({"type": "result", "outcome": out})
        if msg.get("type") == "overhead":
            out = overhead(msg["job"])
            out["id"] = msg["job"]["id"]
            send({"type": "overhead-result", "outcome": out})


if __name__ == "__main__":
    main()
