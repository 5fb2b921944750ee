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
  if (tp === 1) return s.devices.join('+');
  const groups: string[] = [];
  for (let r = 0; r < s.devices.length; r += tp) groups.push(groupIds(s.devices.slice(r, r + tp)));
  const replicas = groups.length;
  return `${replicas === 1 ? `TP${tp}` : `TP${tp}xDP${replicas}`} ${groups.join('+')}`;
}

function stagesText(p: Plan): string {
  return p.stages.map((s) => `[${s.from}-${s.to - 1}] ${groupText(s)}`).join(' | ');
}

export function renderPlans(r: PlanResponse): string {
  const { plans, rejected, searchMs } = r.result;
  const feasible = plans.filter((p) => p.feasible);
  const out: string[] = [
    `${r.workload}: ${r.problem.mode}, batch ${r.problem.batch}, ${r.problem.layers.length} layers, devices ${r.problem.devices
      .map((d) => `${d.id}${d.estimate === 'datasheet' ? ' (datasheet estimate)' : ''}`)
      .join(', ')}; searched in ${searchMs.toFixed(0)} ms`,
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
    out.push(
      formatTable(
        ['DEVICE', 'NEEDED', 'AVAILABLE'],
        best.memory.map((m) => [m.device, formatBytes(m.neededBytes), formatBytes(m.availableBytes)]),
      ),
    );
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
