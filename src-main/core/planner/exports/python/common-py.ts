/**
 * What every training script shares, as Python: its arguments (--steps/--max-steps, --config,
 * --data, --seq, --save-every, --ckpt-dir), the packages it needs (one line naming those missing),
 * the precision (the plan's bf16 where the GPU has it, fp16 with loss scaling on older GPUs, fp32 on
 * the CPU) and the data (a flat file of token ids, or synthetic tokens, said so). Pure (text).
 */
export const COMMON_PY = `
# ---------------------------------------------------------------- arguments, precision, data


def parse_args(extra=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", "--max-steps", dest="steps", type=int, default=100, help="optimizer steps to run")
    p.add_argument("--config", help="a Hugging Face config.json to build the model from (default: MODEL_CONFIG)")
    p.add_argument("--data", help="token ids: a .npy array or a raw .bin file (default: synthetic random tokens)")
    p.add_argument("--data-dtype", default="uint16", help="the .bin file's integer type (default uint16)")
    p.add_argument("--seq", type=int, default=SEQ_LEN, help=f"tokens per sample (default {SEQ_LEN})")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--save-every", type=int, default=1000, help="save a checkpoint every N steps (0: never)")
    p.add_argument("--ckpt-dir", default="checkpoints", help="where checkpoints go; the latest one there is resumed")
    p.add_argument("--cpu", action="store_true", help="run on the CPU (gloo) even where CUDA is available")
    if extra:
        extra(p)
    return p.parse_args()


def require(*modules):
    """Exits with one line naming the packages this script needs that are not installed here (no traceback)."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise SystemExit(f"{os.path.basename(__file__)} needs {', '.join(missing)}, not installed here "
                         f"(pip install {' '.join(missing)})")


def log(*parts):
    if not dist.is_initialized() or dist.get_rank() == 0:
        print(*parts, flush=True)


def precision(device):
    """The compute dtype: PRECISION on a GPU that has it (bf16 from Ampere on, else fp16 with loss scaling), fp32 on
    the CPU. Weights and optimizer state stay fp32; the forward and backward run under autocast."""
    if device.type != "cuda" or PRECISION == "fp32":
        return torch.float32
    if PRECISION == "bf16" and not torch.cuda.is_bf16_supported():
        log("note: this GPU has no bf16: fp16 with loss scaling instead")
        return torch.float16
    return torch.bfloat16 if PRECISION == "bf16" else torch.float16


def autocast(device, dtype):
    if dtype == torch.float32:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=dtype)


# ---------------------------------------------------------------- data


def batches(args, cfg, batch_size):
    """(inputs, targets) of batch_size samples of args.seq token ids each, forever; targets are inputs moved by one.

    Input format (--data): one flat array of token ids, already tokenized: a .npy file (any integer type) or a raw
    .bin file of args.data_dtype (uint16 by default, as nanoGPT's prepare.py writes). Samples are windows of seq + 1
    tokens at random offsets. Without --data the tokens are synthetic (uniform random), which only checks that the
    plan runs. Every rank of one data-parallel replica draws the same samples (its stages and tensor-parallel ranks
    must agree); replicas draw different ones."""
    gen = torch.Generator().manual_seed(1234 + RUN["replica"])
    tokens = None
    if args.data:
        import numpy as np

        tokens = np.load(args.data, mmap_mode="r") if args.data.endswith(".npy") else np.memmap(
            args.data, dtype=args.data_dtype, mode="r")
        log(f"data: {len(tokens):,} tokens from {args.data}")
    else:
        log("data: synthetic random tokens (no --data given)")
    while True:
        if tokens is None:
            window = torch.randint(cfg["vocab_size"], (batch_size, args.seq + 1), generator=gen)
        else:
            starts = torch.randint(len(tokens) - args.seq - 1, (batch_size,), generator=gen).tolist()
            window = torch.stack([torch.from_numpy(tokens[i:i + args.seq + 1].astype("int64")) for i in starts])
        yield window[:, :-1], window[:, 1:]
`;
