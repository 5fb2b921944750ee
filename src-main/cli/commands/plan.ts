import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, UserError } from '../../core/errors.js';
import { planSummary, planWorkload, type PlanResponse } from '../../services/plan/plan-service.js';
import { emitPlan, checkEmitFolder } from '../../services/plan/plan-emit-service.js';
import { storedLine } from '../../services/workload/hf-config-service.js';
import { readDescribedFile } from '../../services/workload/workload-service.js';
import type { RecomputeRequest } from '../../core/planner/search/plan-ranking.js';
import type { Command } from '../command.js';
import { count } from '../../core/text/plural.js';
import { renderPlans } from '../render/plan.js';
import { SERVING_OPTIONS, servingFields } from '../serving-options.js';
import { FINETUNE_OPTIONS, finetuneRequest } from '../finetune-options.js';
import { WORKLOAD_OPTIONS, boundedText, positiveInt, workloadSpecOptions } from '../workload-options.js';
import { REQUEST_LIMITS, TEXT_LIMITS } from '../../core/workload/limits.js';
import { quoted } from '../../core/text/shown.js';

const MAX_NCCL_BYTES = 16 * 2 ** 20;
const MAX_LINKS_BYTES = 4 * 2 ** 20;

/** A small text file the user names (nccl-tests output, a links statement), read whole under a cap. */
function readSmallText(option: string, file: string, cap: number): { source: string; text: string } {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new UserError(`${option}: ${file} is not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${option}: cannot read ${file}`);
  }
  if (size > cap) throw new UserError(`${option}: ${file} is larger than ${cap / 2 ** 20} MiB`);
  return { source: path.basename(file), text: readFileSync(file, 'utf8') };
}

/** nccl-tests outputs: files, or folders whose *.txt and *.log files are read (the pair recipe's output). */
function readNcclFiles(list: string): { source: string; text: string }[] {
  return list
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .flatMap((entry) => {
      let dir = false;
      try {
        dir = statSync(entry).isDirectory();
      } catch {
        throw new UserError(`--nccl: cannot read ${entry}`);
      }
      if (!dir) return [readSmallText('--nccl', entry, MAX_NCCL_BYTES)];
      const files = readdirSync(entry)
        .filter((f) => /\.(txt|log|out)$/i.test(f))
        .sort();
      if (files.length === 0) throw new UserError(`--nccl: ${entry} has no nccl-tests outputs (*.txt, *.log, *.out)`);
      return files.map((f) => readSmallText('--nccl', path.join(entry, f), MAX_NCCL_BYTES));
    });
}

/** Largest tensor-parallel degree --tp takes (a CLI option only). */
const MAX_TP = { min: 1, max: 64 };

/** "1,2,4" → [1, 2, 4]: whole degrees from 1 to 64. */
function tensorDegrees(list: string): number[] {
  const items = list.split(',').map((x) => x.trim());
  if (items.length === 0 || items.some((x) => x === ''))
    throw new UsageError(`--tp takes degrees like 1,2,4,8; got ${quoted(list)}`);
  return [...new Set(items.map((x) => positiveInt('--tp', x, MAX_TP)))];
}

/** FSDP's sharding strategies as ZeRO stages. */
const ZERO_ALIASES: Record<string, 2 | 3> = { fsdp: 3, 'fsdp-grad-op': 2 };

/** "0".."3", fsdp (3), fsdp-grad-op (2) → a ZeRO stage; auto → undefined (searched). */
function zeroStage(text: string): 0 | 1 | 2 | 3 | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'auto') return undefined;
  const alias = ZERO_ALIASES[t];
  if (alias !== undefined) return alias;
  if (!/^[0-3]$/.test(t))
    throw new UsageError(
      `--zero takes auto, a ZeRO stage 0, 1, 2 or 3, fsdp (= 3) or fsdp-grad-op (= 2); got ${quoted(text)}`,
    );
  return Number(t) as 0 | 1 | 2 | 3;
}

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
    '--workload NAME|MODEL.onnx --devices cpu,cuda:0,..|all|none [--machine IMPORTED|node*] [--virtual "8xH100 SXM5,RTX 4090"] [--network 25GbE] [--links FILE] [--nccl FILE|DIR] [--offload auto|yes|no] [--tp 1,2,4,8] [--zero auto|0-3|fsdp|fsdp-grad-op] [--layout tp=2,pp=4,dp=1,...] [--mode training|inference|finetune [--adapter lora|qlora] [--rank R] [--targets q,v,...]] [--batch N] [--weights FORMAT] [--objective latency|throughput] [--tokens N] [--prompt N] [--emit DIR [--force]] [--json]',
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
        'add datasheet GPUs, comma separated, with counts: "8xH100 SXM5,2x4090" (names as typed: 4090, h100 sxm5; see models/gpus.json)',
    },
    network: {
      type: 'string',
      valueName: 'NET',
      description: 'network between machines: 25GbE, 100GbE, 200Gb-IB, Gb/s, or a measured 23.5GB/s@12us',
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
        'price your own layout beside the recommendation: "tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8" (tp x pp x dp = the GPUs; schedule=1f1b|gpipe optional)',
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
        'write the best plan as files: Slurm sbatch (heterogeneous for mixed GPUs), hostfile, DeepSpeed, Megatron, torch, a Chrome trace; DIR must be new or empty',
    },
    force: {
      type: 'boolean',
      description: 'with --emit: write into a folder that is not empty, replacing only the files it emits',
    },
    nccl: {
      type: 'string',
      valueName: 'FILES',
      description:
        'nccl-tests all_reduce_perf outputs (files or folders, comma separated): measured all-reduce replaces the model; two ranks on two machines measure the link between them',
    },
  },
  async run(ctx, opts) {
    if (typeof opts.workload !== 'string') throw new UsageError('plan: --workload is required');
    const asked = typeof opts.mode === 'string' ? opts.mode : 'training';
    if (asked !== 'training' && asked !== 'inference' && asked !== 'finetune')
      throw new UsageError(`--mode takes training, inference or finetune; got ${quoted(asked)}`);
    const finetune = finetuneRequest(opts, asked);
    const mode = asked === 'inference' ? 'inference' : 'training';
    const spec = workloadSpecOptions(opts);
    const offload = typeof opts.offload === 'string' ? opts.offload : 'auto';
    if (offload !== 'auto' && offload !== 'yes' && offload !== 'no')
      throw new UsageError(`--offload takes auto, yes or no; got ${quoted(offload)}`);
    const topN = typeof opts.top === 'string' ? positiveInt('--top', opts.top, REQUEST_LIMITS.top) : 5;
    const recompute = typeof opts.recompute === 'string' ? opts.recompute : 'auto';
    if (!['auto', 'none', 'selective', 'full'].includes(recompute))
      throw new UsageError(`--recompute takes auto, none, selective or full; got ${quoted(recompute)}`);
    const tp = typeof opts.tp === 'string' ? tensorDegrees(opts.tp) : undefined;
    const zero = typeof opts.zero === 'string' ? zeroStage(opts.zero) : undefined;
    const emit =
      typeof opts.emit === 'string' ? { dir: opts.emit, force: opts.force === true, protect: [ctx.dbPath] } : null;
    if (emit) checkEmitFolder(emit.dir, emit);
    // A .gguf header or a config.json (or a model folder): the architecture it describes.
    const gguf = await readDescribedFile(ctx.database(), opts.workload);
    const r = planWorkload(ctx.database(), {
      workload: opts.workload,
      ...(gguf ? { decoder: gguf.entry } : {}),
      ...servingFields(opts, mode, spec.batch, spec.dtype, gguf?.weights ?? null),
      devices: typeof opts.devices === 'string' ? opts.devices : 'all',
      ...(typeof opts.machine === 'string' ? { machine: opts.machine } : {}),
      ...(typeof opts.virtual === 'string'
        ? {
            virtual: opts.virtual
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          }
        : {}),
      ...(typeof opts.network === 'string'
        ? { network: boundedText('--network', opts.network, TEXT_LIMITS.network) }
        : {}),
      ...(typeof opts.links === 'string' ? { links: readSmallText('--links', opts.links, MAX_LINKS_BYTES) } : {}),
      mode,
      ...(spec.seq !== undefined ? { seq: spec.seq } : {}),
      ...(spec.image !== undefined ? { image: spec.image } : {}),
      dims: spec.dims ?? {},
      inputs: spec.inputs ?? {},
      topN,
      offload,
      recompute: recompute as RecomputeRequest,
      ...(tp ? { tp } : {}),
      ...(zero !== undefined ? { zero } : {}),
      ...(typeof opts.layout === 'string' ? { layout: boundedText('--layout', opts.layout, TEXT_LIMITS.layout) } : {}),
      ...(typeof opts.nccl === 'string' ? { nccl: readNcclFiles(opts.nccl) } : {}),
      ...(finetune ? { finetune } : {}),
    });
    r.warnings.unshift(...(gguf?.warnings ?? []));
    const emitted = emit ? emitPlan(emit.dir, r, emit) : null;
    if (ctx.json) {
      // The simulated timelines are for the app's charts.
      const { timeline: _timeline, timelines: _timelines, ...summary } = planSummary(r);
      ctx.printJson({
        ...summary,
        networks: machineNetworks(r),
        ...(gguf?.stored ? { stored: gguf.stored } : {}),
        ...(emitted ? { emitted } : {}),
      });
    } else {
      if (gguf?.stored) ctx.printLine(storedLine(gguf.entry.name, gguf.stored));
      ctx.print(renderPlans(r));
      if (emitted)
        ctx.printLines([
          '',
          `Wrote ${count(emitted.length, 'file')} to ${opts.emit as string}: ${emitted.map((f) => path.basename(f.file)).join(', ')}`,
        ]);
    }
    if (!r.result.plans.some((p) => p.feasible)) throw new UserError(noFitMessage(r, ctx.json));
  },
};
