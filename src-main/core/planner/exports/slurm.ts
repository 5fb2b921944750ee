/**
 * A plan as a Slurm batch script: one job component per kind of node (the set of GPU models a node
 * contributes), a heterogeneous job when there are several kinds, and one torchrun per node with a
 * static rendezvous (MASTER_ADDR from the first component's first node), so ranks keep the plan's
 * order. Each node finds its node rank and GPUs by its hostname. A DeepSpeed hostfile in the same
 * order. Pure.
 */
import {
  commentText,
  cudaIndex,
  exportLayout,
  oneLine,
  quotedName,
  shellQuote,
  slurmNodeNameRefusal,
  type ExportInput,
  type ExportRank,
} from './common.js';

export interface SlurmExport {
  /** The sbatch script (bash). */
  sbatch: string;
  /** DeepSpeed's hostfile: "host slots=N" per node in rank order. */
  hostfile: string;
  warnings: string[];
  /**
   * Why no script was written (one line), or null: a machine label that cannot be a Slurm node
   * name. The sbatch then only says so and exits 1, and the hostfile is empty.
   */
  refusal: string | null;
}

export interface SlurmOptions {
  /** The script every rank runs (default train_pipeline.py) and its arguments. */
  script?: string;
  args?: readonly string[];
  /**
   * How each node starts it: torchrun (default), one python process (a model split over the node's
   * GPUs), or accelerate launch with this config file.
   */
  launcher?: { kind: 'torchrun' } | { kind: 'python' } | { kind: 'accelerate'; config: string };
  /** Wall time (default 01:00:00) and job name. */
  time?: string;
  jobName?: string;
  port?: number;
}

interface Node {
  host: string;
  rank: number;
  gpus: (number | null)[];
  kind: string;
}

/** The ranks' machines in order of first appearance, each with its GPUs and the kinds it holds (one pass: 2,048 nodes of a 16,384-GPU plan). */
function nodesOf(ranks: readonly ExportRank[]): Node[] {
  const byHost = new Map<string, { node: Node; names: Set<string> }>();
  for (const r of ranks) {
    let n = byHost.get(r.device.machine);
    if (!n) {
      n = { node: { host: r.device.machine, rank: byHost.size, gpus: [], kind: '' }, names: new Set() };
      byHost.set(r.device.machine, n);
    }
    n.node.gpus.push(cudaIndex(r.device));
    n.names.add(r.device.name);
  }
  return [...byHost.values()].map(({ node, names }) => ({ ...node, kind: [...names].sort().join(' + ') }));
}

/** Why these nodes and options cannot be written as #SBATCH directives and hostfile lines, or null. */
function refusalOf(nodes: readonly Node[], opts: SlurmOptions): string | null {
  for (const n of nodes) {
    const problem = slurmNodeNameRefusal(n.host);
    if (problem)
      return `machine label ${quotedName(n.host)} cannot be a Slurm node name (${problem}); rename it with import --label`;
  }
  if (opts.jobName !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(opts.jobName))
    return `job name ${quotedName(opts.jobName)} cannot be a Slurm job name (letters, digits, ".", "_" and "-")`;
  if (opts.time !== undefined && !/^[0-9][0-9:-]{0,15}$/.test(opts.time))
    return `wall time ${quotedName(opts.time)} is not a Slurm time ([days-]hours:minutes:seconds)`;
  return null;
}

/** The script written instead of a job that cannot be expressed: it says why and submits nothing. */
function refusedScript(refusal: string): string {
  return [
    '#!/bin/bash',
    `# pipeDejavu wrote no Slurm job for this plan: ${commentText(refusal)}`,
    `echo ${shellQuote(`pipeDejavu wrote no Slurm job for this plan: ${oneLine(refusal)}`)} >&2`,
    'exit 1',
    '',
  ].join('\n');
}

export function exportSlurm(input: ExportInput, opts: SlurmOptions = {}): SlurmExport {
  const layout = exportLayout(input, 'Slurm');
  const warnings = layout.warnings;
  const nodes = nodesOf(layout.ranks);
  const refusal = refusalOf(nodes, opts);
  if (refusal) return { sbatch: refusedScript(refusal), hostfile: '', warnings, refusal };
  const hosts = layout.ranks.map((r) => r.device.machine).filter((h, i, a) => i === 0 || a[i - 1] !== h);
  if (new Set(hosts).size !== hosts.length) {
    warnings.push(
      `the plan's stages go back and forth between nodes (${hosts.join(', ')}): one torchrun per node numbers each node's ranks contiguously, ` +
        'so ranks land on other stages than planned; reorder the stages or map ranks to stages in your script',
    );
  }
  const kinds = [...new Set(nodes.map((n) => n.kind))];
  if (layout.ranks.some((r) => r.device.estimate === 'datasheet')) {
    warnings.push('the plan has datasheet GPUs: replace their hosts in the script with the nodes that have them');
  }
  if (layout.ranks.some((r) => r.device.kind === 'cpu')) {
    warnings.push('a rank runs on a CPU: the script asks Slurm for GPUs only on the nodes that give the plan GPUs');
  }
  const port = opts.port ?? 29500;
  const head = [
    '#!/bin/bash',
    `# pipeDejavu plan: ${layout.pp} stage(s) x ${layout.dp} data-parallel x ${layout.tp} tensor-parallel over ${nodes.length} node(s), ${layout.ranks.length} ranks.`,
    `#SBATCH --job-name=${opts.jobName ?? 'pipedejavu-plan'}`,
    `#SBATCH --time=${opts.time ?? '01:00:00'}`,
  ];
  kinds.forEach((kind, k) => {
    const group = nodes.filter((n) => n.kind === kind);
    const perNode = Math.max(...group.map((n) => n.gpus.length));
    if (k > 0) head.push('#SBATCH hetjob');
    head.push(
      `# component ${k}: ${commentText(kind)}`,
      `#SBATCH --nodes=${group.length} --nodelist=${group.map((n) => n.host).join(',')} --ntasks-per-node=1`,
      ...(group.some((n) => n.gpus.some((g) => g !== null)) ? [`#SBATCH --gres=gpu:${perNode}`] : []),
    );
  });
  const firstList = kinds.length > 1 ? 'SLURM_JOB_NODELIST_HET_GROUP_0' : 'SLURM_JOB_NODELIST';
  const script = [opts.script ?? 'train_pipeline.py', ...(opts.args ?? [])].map(shellQuote).join(' ');
  const cases = nodes.map((n) => {
    const known = n.gpus.every((g) => g !== null);
    const devices = known ? ` DEVICES=${n.gpus.join(',')};` : ' DEVICES=;';
    return `  ${shellQuote(n.host)}) NODE_RANK=${n.rank}; NPROC=${n.gpus.length};${devices} ;;`;
  });
  const body = [
    '',
    'set -euo pipefail',
    `MASTER_ADDR=$(scontrol show hostnames "$${firstList}" | head -n 1)`,
    `export MASTER_ADDR MASTER_PORT=${port}`,
    `srun${kinds.length > 1 ? ` --het-group=0-${kinds.length - 1}` : ''} bash -c '`,
    'case "$(hostname -s)" in',
    ...cases.map((c) => c.replace(/'/g, "'\\''")),
    '  *) echo "$(hostname -s) is not a node of the plan" >&2; exit 1 ;;',
    'esac',
    'if [ -n "$DEVICES" ]; then export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$DEVICES; fi',
    `exec ${launchWords(opts, nodes.length, layout.ranks.length)} ${script.replace(/'/g, "'\\''")}`,
    "'",
    '',
  ];
  const hostfile = `${nodes.map((n) => `${n.host} slots=${n.gpus.length}`).join('\n')}\n`;
  return { sbatch: [...head, ...body].join('\n'), hostfile, warnings, refusal: null };
}

/** The command each node execs before the script: torchrun, python, or accelerate launch at this node's rank. */
function launchWords(opts: SlurmOptions, nodes: number, ranks: number): string {
  const launcher = opts.launcher ?? { kind: 'torchrun' };
  switch (launcher.kind) {
    case 'python':
      return 'python';
    case 'accelerate':
      return (
        `accelerate launch --config_file ${shellQuote(launcher.config).replace(/'/g, "'\\''")} --num_machines ${nodes} ` +
        `--num_processes ${ranks} --machine_rank "$NODE_RANK" --main_process_ip "$MASTER_ADDR" --main_process_port "$MASTER_PORT"`
      );
    case 'torchrun':
      return `torchrun --nnodes ${nodes} --node_rank "$NODE_RANK" --nproc_per_node "$NPROC" --master_addr "$MASTER_ADDR" --master_port "$MASTER_PORT"`;
  }
}
