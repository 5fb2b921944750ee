/**
 * train_deepspeed.py's own part, as Python: the decoder as DeepSpeed pipeline layers (embedding,
 * blocks, head) under the plan's PipelineModule, or whole for one stage; deepspeed.initialize with
 * ds_config.json, train_batch or forward/backward/step, and DeepSpeed's checkpoints. Pure (text).
 */
export const DEEPSPEED_PY = `
# ---------------------------------------------------------------- DeepSpeed


class EmbedPipe(nn.Module):
    """The pipeline's first layer: token ids to the residual stream."""

    def __init__(self, cfg):
        super().__init__()
        self.stage = DecoderStage(cfg, 0, 0, embed=True, head=False)

    def forward(self, ids):
        return self.stage(ids)


class BlockPipe(nn.Module):
    """One decoder block as a pipeline layer (its rotary tables made here)."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.block = Block(cfg)

    def forward(self, x):
        rope = None
        if self.cfg["position"] == "rope":
            rope = rope_tables(x.shape[1], self.cfg["head_dim"], self.cfg["rope_theta"], x.device)
        return self.block(x, rope)


class HeadPipe(nn.Module):
    """The pipeline's last layer: the final norm and the LM head."""

    def __init__(self, cfg):
        super().__init__()
        self.stage = DecoderStage(cfg, 0, 0, embed=False, head=True)

    def forward(self, x):
        return self.stage(x)


def deepspeed_args(p):
    p.add_argument("--deepspeed_config", default="ds_config.json")
    p.add_argument("--local_rank", "--local-rank", type=int, default=int(os.environ.get("LOCAL_RANK", "0")))


def main():
    args = parse_args(deepspeed_args)
    require("deepspeed")
    import deepspeed

    deepspeed.init_distributed()
    world = dist.get_world_size()
    RUN.update(pp=PP, dp=world // PP, tp=1, stage=0, replica=dist.get_rank() % (world // PP), tp_rank=0)
    cfg = read_config(args.config)
    torch.manual_seed(0)
    if PP > 1:
        layers = [EmbedPipe(cfg)] + [BlockPipe(cfg) for _ in range(cfg["num_hidden_layers"])] + [HeadPipe(cfg)]
        model = pipeline_module(layers)
    else:
        model = DecoderStage(cfg, 0, cfg["num_hidden_layers"], embed=True, head=True)
    engine, _, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters(),
                                           config=args.deepspeed_config)
    start = 0
    if os.path.exists(os.path.join(args.ckpt_dir, "latest")):
        _, client = engine.load_checkpoint(args.ckpt_dir)
        start = client["step"]
        log(f"resumed from step {start} ({args.ckpt_dir})")
    data = batches(args, cfg, MICROBATCH_SIZE)
    for step in range(start + 1, args.steps + 1):
        t0 = time.time()
        if PP > 1:
            loss = engine.train_batch(data_iter=data).item()
        else:
            loss = 0.0
            for _ in range(N_MICROBATCHES):
                x, y = next(data)
                micro = loss_fn(engine(x.to(engine.device)), y.to(engine.device))
                engine.backward(micro)
                engine.step()
                loss += micro.item() / N_MICROBATCHES
        tokens = MICROBATCH_SIZE * N_MICROBATCHES * args.seq * RUN["dp"]
        log(f"step {step}/{args.steps} loss {loss:.4f} ({tokens / (time.time() - t0):,.0f} tokens/s)")
        if args.save_every > 0 and step % args.save_every == 0:
            engine.save_checkpoint(args.ckpt_dir, tag=f"step-{step}", client_state={"step": step})


if __name__ == "__main__":
    main()
`;
