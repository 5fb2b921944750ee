/**
 * The torch script's ranks, checkpoints and steps, as Python: the plan's (pp, dp, tp) groups,
 * DDP or FSDP (ZeRO-2/3) for one stage, else the plan's pipeline schedule (GPipe or 1F1B over
 * point-to-point sends) with gradients averaged by hand and ZeRO-1's ZeroRedundancyOptimizer; every
 * rank saves its shard each --save-every steps and the latest checkpoint is resumed. Pure (text).
 */
export const TORCH_PY = `
# ---------------------------------------------------------------- ranks, checkpoints


def setup(args):
    """The process group, this rank's place in the plan (RUN) and its groups (GROUPS).

    Launched with fewer processes than the plan's ranks (one: a check run), the whole model runs in one
    pipeline stage, without tensor parallelism, data parallel over the processes there are."""
    for key, default in (("RANK", "0"), ("WORLD_SIZE", "1"), ("MASTER_ADDR", "127.0.0.1"), ("MASTER_PORT", "29500")):
        os.environ.setdefault(key, default)
    cuda = torch.cuda.is_available() and not args.cpu
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0"))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    dist.init_process_group("nccl" if cuda else "gloo")
    world, rank = dist.get_world_size(), dist.get_rank()
    pp, dp, tp = PP, DP, TP
    if world != PP * DP * TP:
        pp, dp, tp = 1, world, 1
        log(f"note: the plan has {PP * DP * TP} ranks ({PP} stages x {DP} data-parallel x {TP} tensor-parallel); "
            f"{world} were launched, so the whole model runs data parallel over {world}")
    RUN.update(pp=pp, dp=dp, tp=tp, stage=rank // (dp * tp), replica=rank // tp % dp, tp_rank=rank % tp)
    # Every rank creates every group, in the same order (rank = (stage x DP + replica) x TP + tp_rank).
    for s in range(pp):
        for r in range(dp):
            group = dist.new_group([(s * dp + r) * tp + t for t in range(tp)])
            if (s, r) == (RUN["stage"], RUN["replica"]):
                GROUPS["tp"] = group
        for t in range(tp):
            group = dist.new_group([(s * dp + r) * tp + t for r in range(dp)])
            if (s, t) == (RUN["stage"], RUN["tp_rank"]):
                GROUPS["dp"] = group
    # Hybrid sharding (one stage, no tensor parallelism: FSDP's wrapping): shard groups of SHARD_GROUP
    # consecutive replicas, and the replicate groups across them (the i-th replica of each).
    shard = SHARD_GROUP if pp == 1 and tp == 1 and 0 < SHARD_GROUP < dp and dp % SHARD_GROUP == 0 else 0
    for g in range(dp // shard if shard else 0):
        group = dist.new_group(list(range(g * shard, (g + 1) * shard)))
        if RUN["replica"] // shard == g:
            GROUPS["shard"] = group
    for i in range(shard):
        group = dist.new_group(list(range(i, dp, shard)))
        if RUN["replica"] % shard == i:
            GROUPS["replicate"] = group
    return device


def stage_blocks(pp, stage):
    """The blocks [first, last) of this stage: the plan's split, or all of them in one stage."""
    if pp == 1:
        return 0, STAGE_BLOCKS[-1][1]
    return STAGE_BLOCKS[stage]


def grad_scaler(fsdp, dtype):
    """Loss scaling for fp16 (a no-op otherwise); FSDP's shards need its own scaler."""
    if fsdp:
        from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

        return ShardedGradScaler(enabled=dtype == torch.float16)
    return torch.cuda.amp.GradScaler(enabled=dtype == torch.float16)


def local_state(model, fsdp):
    """FSDP's state as this rank holds it (its shard), so that no rank gathers the whole model to save."""
    if not fsdp:
        return contextlib.nullcontext()
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, StateDictType

    return FSDP.state_dict_type(model, StateDictType.LOCAL_STATE_DICT)


def local_optimizer(optimizer):
    """ZeroRedundancyOptimizer keeps this rank's shard of the state in its local optimizer."""
    return getattr(optimizer, "optim", optimizer)


def save_checkpoint(args, step, model, optimizer, fsdp):
    """Every rank saves its own shard (its stage, tensor-parallel slice and optimizer state) under step-N/."""
    folder = os.path.join(args.ckpt_dir, f"step-{step}")
    os.makedirs(folder, exist_ok=True)
    with local_state(model, fsdp):
        state = {"step": step, "model": model.state_dict(), "optimizer": local_optimizer(optimizer).state_dict()}
    torch.save(state, os.path.join(folder, f"rank-{dist.get_rank()}.pt"))
    dist.barrier()
    if dist.get_rank() == 0:
        with open(os.path.join(args.ckpt_dir, "latest"), "w") as f:
            f.write(str(step))
    log(f"step {step}: checkpoint saved to {folder}")


def resume(args, model, optimizer, fsdp):
    """The step to start from: the latest checkpoint's (launched with the same ranks), else 0."""
    latest = os.path.join(args.ckpt_dir, "latest")
    if not os.path.exists(latest):
        return 0
    with open(latest) as f:
        step = int(f.read().strip())
    state = torch.load(os.path.join(args.ckpt_dir, f"step-{step}", f"rank-{dist.get_rank()}.pt"), map_location="cpu")
    with local_state(model, fsdp):
        model.load_state_dict(state["model"])
    local_optimizer(optimizer).load_state_dict(state["optimizer"])
    log(f"resumed from step {step} ({args.ckpt_dir})")
    return step


# ---------------------------------------------------------------- the parallel wrapping and the step


def make_optimizer(args, params, sharded):
    """AdamW (fused where FUSED_ADAMW says, on GPUs); under ZeRO-1 (without FSDP) each data-parallel rank keeps
    its shard of the state."""
    params = list(params)
    kwargs = dict(lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    if FUSED_ADAMW and params and params[0].is_cuda:
        kwargs["fused"] = True
    if ZERO_STAGE >= 1 and RUN["dp"] > 1 and not sharded:
        from torch.distributed.optim import ZeroRedundancyOptimizer

        return ZeroRedundancyOptimizer(params, optimizer_class=torch.optim.AdamW, process_group=GROUPS["dp"], **kwargs)
    return torch.optim.AdamW(params, **kwargs)


def wrap_data_parallel(model, device, dtype):
    """One stage, no tensor parallelism: FSDP for ZeRO-2/3 (GPUs only; HYBRID_SHARD over GROUPS' shard and
    replicate groups under hybrid sharding, where torch has it), else DDP. Returns (model, fsdp)."""
    if ZERO_STAGE >= 2 and device.type == "cuda":
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, MixedPrecision, ShardingStrategy
        from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy

        strategy = ShardingStrategy.FULL_SHARD if ZERO_STAGE == 3 else ShardingStrategy.SHARD_GRAD_OP
        group = GROUPS["dp"]
        if "shard" in GROUPS and hasattr(ShardingStrategy, "HYBRID_SHARD"):
            strategy, group = ShardingStrategy.HYBRID_SHARD, (GROUPS["shard"], GROUPS["replicate"])
        elif "shard" in GROUPS:
            log(f"note: torch {torch.__version__} has no HYBRID_SHARD (2.0 and later): FSDP shards over all "
                f"{RUN['dp']} data-parallel ranks")
        mixed = MixedPrecision(param_dtype=dtype, reduce_dtype=dtype, buffer_dtype=dtype)
        policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={Block})
        return FSDP(model, sharding_strategy=strategy, auto_wrap_policy=policy, mixed_precision=mixed,
                    device_id=device, process_group=group), True
    if ZERO_STAGE >= 2:
        log(f"note: FSDP (ZeRO-{ZERO_STAGE}) needs CUDA GPUs; on the CPU the model runs under DDP")
    ids = [device.index] if device.type == "cuda" else None
    return nn.parallel.DistributedDataParallel(model, device_ids=ids, process_group=GROUPS["dp"]), False


def data_parallel_step(model, optimizer, scaler, device, dtype, inputs, targets):
    """Gradient accumulation over N_MICROBATCHES, gradients reduced once, on the last microbatch."""
    total = 0.0
    for i, (x, y) in enumerate(zip(inputs.chunk(N_MICROBATCHES), targets.chunk(N_MICROBATCHES))):
        last = i == N_MICROBATCHES - 1
        with contextlib.nullcontext() if last or not TRAINING else model.no_sync():
            with autocast(device, dtype), torch.set_grad_enabled(TRAINING):
                loss = loss_fn(model(x.to(device)), y.to(device)) / N_MICROBATCHES
            if TRAINING:
                scaler.scale(loss).backward()
        total += loss.item()
    if TRAINING:
        if CLIP_GRAD_NORM is not None:
            # Unscaled first (fp16), so the step does not unscale again; FSDP's own clip_grad_norm_ takes the
            # norm over every rank's shard.
            scaler.unscale_(optimizer)
            if hasattr(model, "clip_grad_norm_"):
                model.clip_grad_norm_(CLIP_GRAD_NORM)
            else:
                torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP_GRAD_NORM)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
    loss = torch.tensor(total, device=device)
    dist.all_reduce(loss, group=GROUPS["dp"])
    return loss.item() / RUN["dp"]


def schedule(pp, stage, n):
    """This stage's forward (F) and backward (B) passes in order: GPipe runs every forward first; 1F1B starts
    pp - stage - 1 forwards ahead, then alternates, so at most that many microbatches' activations are kept."""
    if not TRAINING:
        return [("F", i) for i in range(n)]
    if SCHEDULE == "gpipe":
        return [("F", i) for i in range(n)] + [("B", i) for i in range(n)]
    warm = min(n, pp - stage - 1)
    ops = [("F", i) for i in range(warm)]
    for i in range(warm, n):
        ops += [("F", i), ("B", i - warm)]
    return ops + [("B", i) for i in range(n - warm, n)]


def pipeline_step(model, optimizer, device, dtype, inputs, targets, cfg):
    """One step of the plan's pipeline: activations sent forward and their gradients back between neighbouring
    stages (point-to-point), gradients then averaged over the data-parallel replicas. fp16 scales the loss by
    LOSS_SCALE and skips a step whose gradients overflow."""
    pp, stage, rank, hop = RUN["pp"], RUN["stage"], dist.get_rank(), RUN["dp"] * RUN["tp"]
    xs, ys = inputs.chunk(N_MICROBATCHES), targets.chunk(N_MICROBATCHES)
    scale = LOSS_SCALE if dtype == torch.float16 else 1.0
    kept, sends, losses = {}, [], []
    for op, i in schedule(pp, stage, N_MICROBATCHES):
        if op == "F":
            if stage == 0:
                x = xs[i].to(device)
            else:
                x = torch.empty(xs[i].shape + (cfg["hidden_size"],), device=device)
                dist.recv(x, rank - hop)
                x.requires_grad_(TRAINING)
            with autocast(device, dtype), torch.set_grad_enabled(TRAINING):
                out = model(x)
                if stage == pp - 1:
                    out = loss_fn(out, ys[i].to(device)) / N_MICROBATCHES
                    losses.append(out.detach())
                else:
                    out = out.float()
                    sends.append((dist.isend(out.detach().contiguous(), rank + hop), out))
            kept[i] = (x, out)
        else:
            x, out = kept.pop(i)
            if stage == pp - 1:
                (out * scale).backward()
            else:
                grad = torch.empty_like(out)
                dist.recv(grad, rank + hop)
                out.backward(grad)
            if stage > 0:
                sends.append((dist.isend(x.grad.contiguous(), rank - hop), x.grad))
    for handle, _ in sends:
        handle.wait()
    if TRAINING:
        finish_step(model, optimizer, scale)
    loss = torch.stack(losses).sum() if losses and RUN["tp_rank"] == 0 else torch.zeros((), device=device)
    dist.all_reduce(loss)
    return loss.item() / RUN["dp"]


def finish_step(model, optimizer, scale):
    """Gradients averaged over the data-parallel replicas (as DDP does), unscaled, and the step taken unless one
    overflowed anywhere."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    overflow = torch.zeros((), device=grads[0].device if grads else None)
    for g in grads:
        if RUN["dp"] > 1:
            dist.all_reduce(g, group=GROUPS["dp"])
        g /= RUN["dp"] * scale
        overflow += (~torch.isfinite(g)).any().float()
    dist.all_reduce(overflow)
    if overflow.item() == 0:
        if CLIP_GRAD_NORM is not None:
            clip_split_gradients(model, grads)
        optimizer.step()
    else:
        log("note: gradients overflowed (fp16): step skipped")
    optimizer.zero_grad(set_to_none=True)


def clip_split_gradients(model, grads):
    """clip_grad_norm_ at CLIP_GRAD_NORM over the whole model split over stages and tensor-parallel ranks: each
    rank's squared norms (a tensor every tensor-parallel rank holds whole counted once), summed over every rank
    and divided by the data-parallel replicas (they hold the same averaged gradients), then every gradient
    scaled by max_norm / norm, at most 1, as torch.nn.utils.clip_grad_norm_ does (foreach norm, foreach mul)."""
    if not grads:
        return
    norms = torch._foreach_norm(grads)
    weights = [1.0 if getattr(p, "tp_split", False) else 1.0 / RUN["tp"]
               for p in model.parameters() if p.grad is not None]
    total = sum(w * n.float() ** 2 for w, n in zip(weights, norms))
    dist.all_reduce(total)
    norm = (total / RUN["dp"]).sqrt()
    torch._foreach_mul_(grads, torch.clamp(CLIP_GRAD_NORM / (norm + 1e-6), max=1.0).to(grads[0].dtype))


def main():
    args = parse_args()
    device = setup(args)
    cfg = read_config(args.config)
    if STAGE_BLOCKS[-1][1] != cfg["num_hidden_layers"]:
        raise SystemExit(f"the plan splits {STAGE_BLOCKS[-1][1]} blocks; the config has {cfg['num_hidden_layers']}")
    dtype = precision(device)
    torch.manual_seed(0)
    pp, stage = RUN["pp"], RUN["stage"]
    first, last = stage_blocks(pp, stage)
    model = DecoderStage(cfg, first, last, embed=stage == 0, head=stage == pp - 1).to(device)
    log(f"model: {cfg['num_hidden_layers']} blocks of {cfg['hidden_size']}, vocab {cfg['vocab_size']}; "
        f"{pp} stages x {RUN['dp']} data-parallel x {RUN['tp']} tensor-parallel; {dtype} on {device.type}")
    manual = pp > 1 or RUN["tp"] > 1
    fsdp = False
    if not manual:
        model, fsdp = wrap_data_parallel(model, device, dtype)
    elif ZERO_STAGE >= 2:
        log(f"note: ZeRO-{ZERO_STAGE} with pipeline or tensor parallelism runs as ZeRO-1 here")
    optimizer = make_optimizer(args, model.parameters(), fsdp)
    scaler = grad_scaler(fsdp, dtype)
    start = resume(args, model, optimizer, fsdp)
    data = batches(args, cfg, MICROBATCH_SIZE * N_MICROBATCHES)
    for step in range(start + 1, args.steps + 1):
        t0 = time.time()
        inputs, targets = next(data)
        if manual:
            loss = pipeline_step(model, optimizer, device, dtype, inputs, targets, cfg)
        else:
            loss = data_parallel_step(model, optimizer, scaler, device, dtype, inputs, targets)
        tokens = inputs.numel() * RUN["dp"]
        log(f"step {step}/{args.steps} loss {loss:.4f} ({tokens / (time.time() - t0):,.0f} tokens/s)")
        if TRAINING and args.save_every > 0 and step % args.save_every == 0:
            save_checkpoint(args, step, model, optimizer, fsdp)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
`;
