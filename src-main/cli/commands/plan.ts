import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { planSummary, planWorkload, withDescribedModel, type PlanResponse } from '../../services/plan/plan-service.js';
import { emitPlan, checkEmitFolder } from '../../services/plan/plan-emit-service.js';
import { storedLine } from '../../services/workload/hf-config-service.js';
import { readDescribedFile } from '../../services/workload/workload-service.js';
import type { Command } from '../command.js';
import { count } from '../../core/text/plural.js';
import { renderPlans } from '../render/plan.js';
import { SERVING_OPTIONS } from '../serving-options.js';
import { FINETUNE_OPTIONS } from '../finetune-options.js';
import { WORKLOAD_OPTIONS } from '../workload-options.js';
import { planRequestOf } from '../plan-request-options.js';

/** The one error line when nothing fits: how many candidates failed and where the way out is. */
function noFitMessage(r: PlanResponse, json: boolean): string {
  const n = r.suggestions.length;
  return (
    `no plan fits these devices (${count(r.problem.devices.length, 'device')}); ` +
    (n > 0
      ? `${count(n, 'change')} that would fit ${n === 1 ? 'is' : 'are'} listed ${json ? 'under suggestions' : 'above'}`
      : 'no change tried fits either: fewer tokens, a smaller batch, recomputation, ZeRO, 4-bit weights or more GPUs')
  );
}

/** The link the plan used between each pair of machines (one device pair stands for the machines'). */
function machineNetworks(r: PlanResponse): { a: string; b: string; kind: string; gbps: number; alphaUs: number }[] {
  const machineOf = new Map(r.problem.devices.map((d) => [d.id, d.machine]));
  const seen = new Map<string, { a: string; b: string; kind: string; gbps: number; alphaUs: number }>();
  for (const l of r.problem.links) {
    const a = machineOf.get(l.a);
    const b = machineOf.get(l.b);
    if (a === undefined || b === undefined || a === b) continue;
    const [x, y] = a < b ? [a, b] : [b, a];
    if (!seen.has(`${x}\u0000${y}`))
      seen.set(`${x}\u0000${y}`, { a: x, b: y, kind: l.kind, gbps: l.gbps, alphaUs: l.alphaUs });
  }
  return [...seen.values()];
}

export const planCommand: Command = {
  name: 'plan',
  summary: 'recommend how to run a workload on these (and imported or datasheet) devices',
  usage:
    '--workload NAME|MODEL.onnx --devices cpu,cuda:0,..|all|none [--machine IMPORTED|node*] [--virtual "8xH100 SXM5,RTX 4090"] [--network 25GbE] [--links FILE] [--nccl FILE|DIR] [--offload auto|yes|no] [--tp 1,2,4,8] [--zero auto|0-3|fsdp|fsdp-grad-op] [--layout tp=2,pp=4,dp=1,... [--no-search]] [--mode training|inference|finetune [--adapter lora|qlora] [--rank R] [--targets q,v,...]] [--batch N] [--weights FORMAT] [--objective latency|throughput] [--tokens N] [--prompt N] [--emit DIR [--force]] [--json]',
  details:
    'Searches single device, data parallel (batch split by device speed), pipeline parallel (exact dynamic\n' +
    'program over contiguous layer ranges and ordered devices, microbatches, GPipe or 1F1B), tensor parallel\n' +
    "(Megatron-style splits of a transformer's blocks over a group of GPUs) and hybrids of them, with a memory\n" +
    'check per device. Devices from --virtual come from datasheets and are marked as estimates.',
  options: {
    ...WORKLOAD_OPTIONS,
    ...SERVING_OPTIONS,
    workload: {
      type: 'string',
      valueName: 'W',
      description:
        'catalog name, stored workload, .onnx file, .gguf file (its architecture, from the header), or a Hugging Face config.json or model folder',
    },
    devices: {
      type: 'string',
      valueName: 'LIST',
      description: 'local devices: all (default), none, or cpu,cuda:0,...',
    },
    machine: {
      type: 'string',
      valueName: 'IDS',
      description: "add imported machines (lab servers): ids, labels or patterns like 'node*', comma separated",
    },
    virtual: {
      type: 'string',
      valueName: 'GPUS',
      description:
        'add datasheet GPUs, comma separated, with counts: "8xH100 SXM5,2x4090" (names as typed: 4090, h100 sxm5; see `pipedejavu gpus`)',
    },
    network: {
      type: 'string',
      valueName: 'NET',
      description:
        'network between machines: 25GbE, 100GbE, 200Gb-IB, Gb/s, NICs a node as 8x400Gb-IB or 32x100Gb-EFA, a node (dgx-a100, dgx-h100, p4d, p5, ...), or a measured 23.5GB/s@12us',
    },
    links: {
      type: 'string',
      valueName: 'FILE',
      description:
        'links between machines, a line per pair or pattern: "rack1-* rack1-* 200Gb-IB"; first match wins, --network covers the rest',
    },
    mode: {
      type: 'string',
      valueName: 'MODE',
      description: 'training (default), inference, or finetune (LoRA/QLoRA adapters: --adapter, --rank, --targets)',
    },
    ...FINETUNE_OPTIONS,
    top: { type: 'string', valueName: 'N', description: 'plans to list (default 5)' },
    offload: {
      type: 'string',
      valueName: 'WHEN',
      description: 'optimizer offload to the CPU when training: auto (default: with and without), yes, no',
    },
    zero: {
      type: 'string',
      valueName: 'N',
      description:
        'ZeRO stage when training: auto (default: 1, 2 and 3 searched), 0 (plain DDP), 1 (optimizer state), 2 or fsdp-grad-op (and gradients), 3 or fsdp (and weights) sharded over data-parallel replicas',
    },
    layout: {
      type: 'string',
      valueName: 'KEYS',
      description:
        'price your own layout beside the recommendation: "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8" (tp x pp x dp = the GPUs; schedule=1f1b|gpipe optional; vp=N: interleaved 1F1B (Megatron-LM), N virtual stages a rank, the blocks in pp x vp equal chunks, mb a multiple of pp; cp=N: context parallelism (ring attention), the tokens of each sample over N GPUs, tp x cp x pp x dp = the GPUs; ep=N: the experts of a mixture of experts over N GPUs of a stage, a multiple of tp; shard=N: hybrid sharding (HSDP) with zero=3, the state sharded over groups of N data-parallel replicas and replicated across them, N dividing dp)',
    },
    'no-search': {
      type: 'boolean',
      description:
        'with --layout: price that layout alone, with the figures a searched plan has, and search for no better one (no ranking, no suggestions): fast at any size, 16,384 GPUs included',
    },
    attention: {
      type: 'string',
      valueName: 'KERNEL',
      description:
        'the attention kernel the training stack runs: fused (default: FlashAttention, SDPA, cuDNN) or unfused (batched QKᵀ and AV GEMMs and a softmax over the scores in memory, as Megatron-LM ran it before 2022); prices datasheet GPUs',
    },
    recompute: {
      type: 'string',
      valueName: 'HOW',
      description:
        'activation recomputation when training: auto (default: none, selective and full), none, selective, full',
    },
    tp: {
      type: 'string',
      valueName: 'LIST',
      description:
        'tensor-parallel degrees to search for a catalog transformer (default 1,2,4,8 where they divide the heads; 1: none)',
    },
    emit: {
      type: 'string',
      valueName: 'DIR',
      description:
        'write the best plan (or the --layout given) as files: Slurm sbatch (heterogeneous for mixed GPUs), hostfile, DeepSpeed, Megatron, torch, a Chrome trace; DIR must be new or empty',
    },
    force: {
      type: 'boolean',
      description: 'with --emit: write into a folder that is not empty, replacing only the files it emits',
    },
    nccl: {
      type: 'string',
      valueName: 'FILES',
      description:
        'nccl-tests all_reduce_perf, all_gather_perf or reduce_scatter_perf outputs (files or folders, comma separated): a measured collective replaces the model for its GPUs; an all-reduce of two ranks on two machines measures the link between them',
    },
  },
  async run(ctx, opts) {
    const request = planRequestOf(opts);
    const emit =
      typeof opts.emit === 'string' ? { dir: opts.emit, force: opts.force === true, protect: [ctx.dbPath] } : null;
    if (emit) checkEmitFolder(emit.dir, emit);
    // A .gguf header or a config.json (or a model folder): the architecture it describes.
    const gguf = await readDescribedFile(ctx.database(), request.workload);
    const r = planWorkload(ctx.database(), gguf ? withDescribedModel(request, gguf) : request);
    r.warnings.unshift(...(gguf?.warnings ?? []));
    const emitted = emit ? emitPlan(emit.dir, r, emit) : null;
    if (ctx.json) {
      // The simulated timelines are for the app's charts.
      const { timeline: _timeline, timelines: _timelines, ...summary } = planSummary(r);
      const layout = summary.layout ? { ...summary.layout, timeline: undefined } : null;
      ctx.printJson({
        ...summary,
        layout,
        networks: machineNetworks(r),
        ...(gguf?.stored ? { stored: gguf.stored } : {}),
        ...(emitted ? { emitted } : {}),
      });
    } else {
      if (gguf?.stored) ctx.printLine(storedLine(gguf.entry.name, gguf.stored));
      ctx.print(renderPlans(r, { searched: request.search !== false }));
      if (emitted)
        ctx.printLines([
          '',
          `Wrote ${count(emitted.length, 'file')} to ${opts.emit as string}${r.exportsOf === 'layout' ? ' (your layout, not the recommendation)' : ''}: ${emitted.map((f) => path.basename(f.file)).join(', ')}`,
        ]);
    }
    if (request.search === false) {
      if (r.layout && !r.layout.fits) throw new UserError(`your layout does not fit: ${r.layout.reasons[0] ?? ''}`);
    } else if (!r.result.plans.some((p) => p.feasible)) throw new UserError(noFitMessage(r, ctx.json));
  },
};
