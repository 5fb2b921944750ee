/** Ranked plans, their memory and the best plan's exports, as text. */
import type { Plan } from '../../core/planner/types.js';
import type { PlanResponse } from '../../services/plan-service.js';
import { formatBytes, formatTable } from '../output.js';
import { ms } from './workload.js';

/** "m/gpu:{0,1}" for devices that differ only in their index, else "a+b". */
function groupIds(ids: readonly string[]): string {
  const parts = ids.map((id) => /^(.*):(\d+)$/.exec(id));
  const prefix = parts[0]?.[1];
  if (ids.length > 1 && parts.every((m) => m && m[1] === prefix)) {
    return `${prefix}:{${parts.map((m) => m?.[2] ?? '').join(',')}}`;
  }
  return ids.join('+');
}

/** "a+b" (data parallel), "TP2 m/gpu:{0,1}" (tensor parallel), "TP2xDP2 m/gpu:{0,1}+m/gpu:{2,3}" (replicas of a TP group). */
function groupText(s: Plan['stages'][number]): string {
  const tp = s.tp ?? 1;
  if (tp === 1) return listed(s.devices, '+');
  const groups: string[] = [];
  for (let r = 0; r < s.devices.length; r += tp) groups.push(groupIds(s.devices.slice(r, r + tp)));
  const replicas = groups.length;
  return `${replicas === 1 ? `TP${tp}` : `TP${tp}xDP${replicas}`} ${listed(groups, '+')}`;
}

/** A few items and a count when there are many (a cluster's stage spans dozens of machines). */
function listed(items: readonly string[], sep: string, most = 6): string {
  return items.length <= most
    ? items.join(sep)
    : `${items.slice(0, most - 2).join(sep)}${sep}...${sep}${items[items.length - 1] ?? ''} (${items.length})`;
}

/** The plan's devices: each one, or per kind with a count once there are many. */
function devicesText(devices: PlanResponse['problem']['devices']): string {
  if (devices.length <= 16)
    return devices.map((d) => `${d.id}${d.estimate === 'datasheet' ? ' (datasheet estimate)' : ''}`).join(', ');
  const kinds = new Map<string, number>();
  for (const d of devices) kinds.set(d.name, (kinds.get(d.name) ?? 0) + 1);
  const machines = new Set(devices.map((d) => d.machine)).size;
  return `${devices.length} on ${machines} machines (${[...kinds].map(([name, n]) => `${n} x ${name}`).join(', ')})`;
}

function stagesText(p: Plan): string {
  return p.stages.map((s) => `[${s.from}-${s.to - 1}] ${groupText(s)}`).join(' | ');
}

/** One row per device; past 16 devices, one per distinct (needed, available) with a count. */
function memoryRows(memory: Plan['memory']): string[][] {
  if (memory.length <= 16)
    return memory.map((m) => [m.device, formatBytes(m.neededBytes), formatBytes(m.availableBytes)]);
  const rows = new Map<string, { devices: string[]; needed: string; available: string }>();
  for (const m of memory) {
    const needed = formatBytes(m.neededBytes);
    const available = formatBytes(m.availableBytes);
    const row = rows.get(`${needed}/${available}`) ?? { devices: [], needed, available };
    row.devices.push(m.device);
    rows.set(`${needed}/${available}`, row);
  }
  return [...rows.values()].map((r) => [
    r.devices.length === 1 ? (r.devices[0] as string) : `${r.devices.length} devices (${r.devices[0] ?? ''}, ...)`,
    r.needed,
    r.available,
  ]);
}

export function renderPlans(r: PlanResponse): string {
  const { plans, rejected, searchMs } = r.result;
  const feasible = plans.filter((p) => p.feasible);
  const out: string[] = [
    `${r.workload}: ${r.problem.mode}, batch ${r.problem.batch}, ${r.problem.layers.length} layers, devices ${devicesText(r.problem.devices)}; searched in ${searchMs.toFixed(0)} ms`,
    '',
    formatTable(
      ['#', 'KIND', 'STEP', 'SAMPLES/S', 'MICROBATCHES', 'BUBBLE', 'COMM', 'STAGES'],
      plans.map((p, i) => [
        i + 1,
        `${p.kind}${p.optimizerOffload ? ' + CPU optimizer' : ''}${p.recompute ? ` + ${p.recompute} recompute` : ''}${p.feasible ? '' : ' (does not fit)'}`,
        ms(p.stepUs),
        p.throughputSamplesPerS.toFixed(1),
        `${p.microbatches} ${p.schedule}`,
        `${(p.bubbleFraction * 100).toFixed(0)}%`,
        `${(p.commFraction * 100).toFixed(0)}%`,
        stagesText(p),
      ]),
    ),
  ];
  if (r.serving) {
    out.push(
      '',
      'Serving (decode steps read each stage’s weights and KV cache at its decode bandwidth; stages in turn):',
      formatTable(
        ['#', 'TIME TO FIRST TOKEN', 'DECODE STEP', 'TOKENS/S', 'LONGEST CONTEXT'],
        r.serving.map((s, i) => [
          i + 1,
          ms(s.ttftUs),
          ms(s.decodeStepUs),
          s.tokensPerSecond.toFixed(1),
          plans[i]?.feasible ? s.maxContext : '-',
        ]),
      ),
    );
  }
  const best = feasible[0];
  if (best) {
    out.push(
      '',
      `Best plan: ${best.kind}${best.optimizerOffload ? ' with the optimizer offloaded to the CPU' : ''}${best.recompute ? `, ${best.recompute} activation recomputation` : ''}, bottleneck stage ${best.bottleneckStage}; memory per device:`,
    );
    out.push(formatTable(['DEVICE', 'NEEDED', 'AVAILABLE'], memoryRows(best.memory)));
    const next = feasible[1];
    if (next)
      out.push(
        `Next best (${next.kind}) is ${(((next.stepUs - best.stepUs) / best.stepUs) * 100).toFixed(1)}% slower: ${next.reasons[0] ?? stagesText(next)}`,
      );
  } else {
    out.push('', 'No plan fits these devices:');
  }
  for (const p of plans.filter((x) => !x.feasible).slice(0, 3)) out.push(`- ${p.kind}: ${p.reasons.join('; ')}`);
  for (const x of rejected.slice(0, 3)) out.push(`- rejected ${x.kind}: ${x.reason}`);
  if (r.exports) {
    out.push('', 'Run it (see --json for the full exports):');
    out.push(`torchrun:  ${r.exports.torch.commands[0] ?? ''}`);
    out.push(`DeepSpeed: ${r.exports.deepspeed.commands[0] ?? ''}`);
    out.push(`Megatron:  ${r.exports.megatron.commands[0] ?? ''}`);
    if (r.problem.mode === 'inference') {
      out.push(`vLLM:      ${r.exports.vllm.command}`);
      out.push(`llama.cpp: ${r.exports.llamaCpp.command}`);
    }
    const engineWarnings = [
      ...r.exports.torch.warnings,
      ...r.exports.deepspeed.warnings,
      ...r.exports.megatron.warnings,
    ];
    for (const w of [...new Set(engineWarnings)].slice(0, 5)) out.push(`  note: ${w}`);
  }
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join('\n');
}
