/**
 * train_accelerate.py's own part, as Python: the decoder prepared by accelerate (FSDP, DeepSpeed
 * or DDP as accelerate.yaml says), gradient accumulation over the plan's microbatches, and
 * accelerate's save_state/load_state checkpoints. Pure (text).
 */
export const ACCELERATE_PY = `
# ---------------------------------------------------------------- accelerate


def main():
    args = parse_args()
    require("accelerate")
    from accelerate import Accelerator

    acc = Accelerator(gradient_accumulation_steps=N_MICROBATCHES)  # mixed precision: accelerate.yaml
    RUN.update(pp=1, dp=acc.num_processes, tp=1, stage=0, replica=acc.process_index, tp_rank=0)
    cfg = read_config(args.config)
    torch.manual_seed(0)
    model = DecoderStage(cfg, 0, cfg["num_hidden_layers"], embed=True, head=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    model, optimizer = acc.prepare(model, optimizer)
    start = 0
    latest = os.path.join(args.ckpt_dir, "latest")
    if os.path.exists(latest):
        with open(latest) as f:
            start = int(f.read().strip())
        acc.load_state(os.path.join(args.ckpt_dir, f"step-{start}"))
        log(f"resumed from step {start} ({args.ckpt_dir})")
    data = batches(args, cfg, MICROBATCH_SIZE)
    for step in range(start + 1, args.steps + 1):
        t0 = time.time()
        loss = 0.0
        for _ in range(N_MICROBATCHES):
            x, y = next(data)
            with acc.accumulate(model), acc.autocast():
                micro = loss_fn(model(x.to(acc.device)), y.to(acc.device))
                acc.backward(micro)
                optimizer.step()
                optimizer.zero_grad()
            loss += micro.item() / N_MICROBATCHES
        tokens = MICROBATCH_SIZE * N_MICROBATCHES * args.seq * RUN["dp"]
        log(f"step {step}/{args.steps} loss {loss:.4f} ({tokens / (time.time() - t0):,.0f} tokens/s)")
        if args.save_every > 0 and step % args.save_every == 0:
            acc.save_state(os.path.join(args.ckpt_dir, f"step-{step}"))
            if acc.is_main_process:
                with open(latest, "w") as f:
                    f.write(str(step))


if __name__ == "__main__":
    main()
`;
