/** Whole-model predictions and measurements as tables. */
import { assumptionsLine } from '../../core/planner/plan-assumptions.js';
import { bandPercent, type ModelBand } from '../../core/predictor/model-band.js';
import { SHIPPED_SOURCE } from '../../core/predictor/shipped-residuals.js';
import { fromNodeUs, type WorkloadPrediction } from '../../core/workload/predict-workload.js';
import { KV_DATAFLOWS } from '../../core/workload/decode-attention.js';
import type { ModelMeasurement } from '../../services/measure/measure-model-service.js';
import type { GenerationPrediction } from '../../services/predict/generation-service.js';
import { count, noun } from '../../core/text/plural.js';
import { tableRows, textLines } from '../output.js';
import { formatBytes } from '../../core/text/bytes.js';

/** An executed node as the node tables describe it. */
interface RanNode {
  name: string;
  opType: string;
  /** The file's nodes it computes, its main one first. */
  fileNodes: readonly string[];
}

const isReorder = (n: RanNode): boolean => n.opType === 'ReorderInput' || n.opType === 'ReorderOutput';

/**
 * The EXECUTED AS cell of a file node's row: the names ONNX Runtime gave the nodes that run it
 * (where they differ from the file's), the file nodes each fusion absorbed, and the reorders
 * ORT inserted there. "same" when ORT runs the node as it is in the file.
 */
function executedAs(fileNode: string, ran: readonly RanNode[]): string {
  const parts: string[] = [];
  for (const n of ran.filter((r) => !isReorder(r))) {
    const absorbed = n.fileNodes.filter((f) => f !== fileNode);
    if (n.name === fileNode && absorbed.length === 0) continue;
    parts.push(
      `${n.name}${n.opType ? ` (${n.opType})` : ''}${absorbed.length ? `, fuses ${absorbed.join(', ')}` : ''}`,
    );
  }
  const reorders = ran.filter(isReorder).length;
  if (reorders) parts.push(`${count(reorders, 'reorder')} inserted by ORT`);
  return parts.length ? parts.join('; ') : 'same';
}

/** Per file node of an executed-graph prediction, the executed nodes whose time it takes. */
function executedByFileNode(p: WorkloadPrediction): Map<string, RanNode[]> {
  const out = new Map<string, RanNode[]>();
  for (const e of p.executed ?? []) {
    const main = e.sourceNodes[0];
    if (main === undefined) continue;
    const list = out.get(main) ?? [];
    list.push({ name: e.name, opType: e.opType, fileNodes: e.sourceNodes });
    out.set(main, list);
  }
  return out;
}

export const ms = (us: number): string => (us >= 1e6 ? `${(us / 1e6).toFixed(2)} s` : `${(us / 1000).toFixed(3)} ms`);

/** `deviceName`: the device as people read it (machine label, device, threads); the id when not given. */
export function renderPrediction(p: WorkloadPrediction, deviceName = p.device, top = 12): string {
  const ran = executedByFileNode(p);
  const out = [
    // The sequence (or image), batch and dtype first, as plan states them.
    ...(p.assumptions ? [assumptionsLine(p.assumptions)] : []),
    `${p.workload} on ${deviceName} (${p.mode}, ${p.predictor} predictor): ${ms(p.totalUs)}${p.band90 ? '' : ` (band ${ms(p.lowUs)} - ${ms(p.highUs)})`}`,
    ...(p.band90 ? [bandLine(p.band90, fromNodeUs(p))] : []),
    `graph: ${p.graph === 'executed' ? `the one ONNX Runtime executes (${count(p.executed?.length ?? 0, 'executed node')})` : 'as in the file'}; overhead ${ms(p.overheadUs)} (${p.runOverheadUs > 0 ? `${ms(p.runOverheadUs)} per run` : 'not measured'})${
      Object.keys(p.calibration).length
        ? `; calibrated ${Object.entries(p.calibration)
            .map(([f, v]) => `${f} x${v.toFixed(2)}`)
            .join(', ')}`
        : ''
    }`,
    ...(p.binding
      ? [
          `Node binding: +${ms(p.binding.us)} per call (${formatBytes(p.binding.ioBytes)} of inputs and outputs copied), ${ms(fromNodeUs(p))} as timed from Node`,
        ]
      : []),
    '',
    'Time per op family',
    ...tableRows(
      ['FAMILY', 'SHARE'],
      Object.entries(p.familyShare)
        .sort((a, b) => b[1] - a[1])
        .map(([f, s]) => [f, `${(s * 100).toFixed(1)}%`]),
    ),
    '',
    `Layers (${p.layers.length}; the ${Math.min(top, p.layers.length)} slowest)`,
    ...tableRows(
      ['#', 'LAYER', 'TIME', 'BAND'],
      [...p.layers]
        .sort((a, b) => b.timeUs - a.timeUs)
        .slice(0, top)
        .map((l) => [l.index, l.name, ms(l.timeUs), `${ms(l.lowUs)} - ${ms(l.highUs)}`]),
    ),
    '',
    `Nodes of the file (${p.nodes.length}; the ${Math.min(top, p.nodes.length)} slowest${p.graph === 'executed' ? '; EXECUTED AS: what ONNX Runtime runs for each' : ''})`,
    ...tableRows(
      ['NODE', 'OP', 'FAMILY', 'TIME', 'HOW', ...(p.graph === 'executed' ? ['EXECUTED AS'] : [])],
      [...p.nodes]
        .sort((a, b) => b.timeUs - a.timeUs)
        .slice(0, top)
        .map((n) => [
          n.name,
          n.opType,
          n.family ?? '-',
          ms(n.timeUs),
          n.how,
          ...(p.graph === 'executed' ? [executedAs(n.name, ran.get(n.name) ?? [])] : []),
        ]),
    ),
  ];
  for (const w of p.warnings) out.push(`warning: ${w}`);
  return textLines(out);
}

/** "90% band 1.61 - 2.45 ms as timed from Node (-20%/+22%; from 14 checks of other models on this device)". */
function bandLine(b: ModelBand, fromNode: number): string {
  const basis =
    b.from === 'checks'
      ? `${count(b.n, 'measure-model check')} of other models on this device`
      : b.from === 'checks+shipped'
        ? `${count(b.n, 'residual')}: this device's measure-model checks of other models and the prediction bench's (${SHIPPED_SOURCE})`
        : `the prediction bench's ${count(b.n, 'held-out residual')} (${SHIPPED_SOURCE}); measure-model on your models narrows it to this machine`;
  return `90% band ${ms(b.lowUs)} - ${ms(b.highUs)} around ${ms(fromNode)} as timed from Node (${bandPercent(b)}; from ${basis})`;
}

/** What the check does to the bands of other models: kept as one, or not (the machine ran off its profiled speed). */
function bandVerdict(b: NonNullable<ModelMeasurement['band']>): string {
  if (!b.check) return '; not used as a check for the bands of other models (see the warning below)';
  return `${b.inside ? '' : ': a check outside the band widens the bands of the models after it'}; kept as a check for the bands of other models`;
}

export function renderMeasurement(m: ModelMeasurement, deviceName = m.device, top = 12): string {
  const pct = (v: number | null): string => (v === null ? '-' : `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`);
  const out = [
    `${m.workload} on ${deviceName}: measured ${m.medianMs.toFixed(3)} ms median (p10 ${m.p10Ms.toFixed(3)}, p90 ${m.p90Ms.toFixed(3)}, ${count(m.repetitions, 'run')}; the lower of ${count(m.passMediansMs.length, 'untraced pass')}: ${m.passMediansMs.map((v) => v.toFixed(3)).join(', ')} ms)`,
    ...tableRows(
      ['', 'MEASURED', 'PREDICTED', 'ERROR'],
      [
        [
          'end to end (from Node)',
          `${m.medianMs.toFixed(3)} ms`,
          m.predicted ? ms(fromNodeUs(m.predicted)) : '-',
          pct(m.errorPct),
        ],
        [
          'sum of nodes (ORT-traced, less the trace)',
          `${m.nodesSumMs.toFixed(3)} ms`,
          m.predicted ? ms(m.predicted.totalUs - m.predicted.runOverheadUs) : '-',
          pct(m.nodeErrorPct),
        ],
        [
          'per-run overhead and Node binding',
          `${m.frameworkOverheadMs.toFixed(3)} ms`,
          m.predicted ? ms(m.predicted.runOverheadUs + (m.predicted.binding?.us ?? 0)) : '-',
          '-',
        ],
        ['ORT-traced run (for comparison)', `${m.profiledMs.toFixed(3)} ms`, '-', '-'],
      ],
    ),
    ...(m.band
      ? [
          `the measured ${m.medianMs.toFixed(3)} ms is ${m.band.inside ? 'inside' : 'OUTSIDE'} the prediction's 90% band ${m.band.lowMs.toFixed(3)} - ${m.band.highMs.toFixed(3)} ms${bandVerdict(m.band)}`,
        ]
      : []),
    '',
    `Nodes of the file (${m.fileNodeCount}; ${m.fileNodes.length} took time, run as ${count(m.nodes.length, 'executed node')}${m.unmatchedNodes ? `, ${m.unmatchedNodes} traced ${noun(m.unmatchedNodes, 'node')} not found in the executed graph` : ''}; the ${Math.min(top, m.fileNodes.length)} slowest; EXECUTED AS: what ONNX Runtime ran for each)`,
    ...tableRows(
      ['NODE', 'OP', 'MEASURED', 'PREDICTED', 'ERROR', 'EXECUTED AS'],
      m.fileNodes
        .slice(0, top)
        .map((n) => [
          n.name,
          n.opType,
          ms(n.measuredUs),
          n.predictedUs === null ? '-' : ms(n.predictedUs),
          n.predictedUs === null || !(n.measuredUs > 0)
            ? '-'
            : pct(((n.predictedUs - n.measuredUs) / n.measuredUs) * 100),
          executedAs(n.name, n.executed),
        ]),
    ),
    '',
    `Stored ${count(m.stored.inserted, 'new node measurement')} for training (${count(m.stored.alreadyStored, 'shape')} ${m.stored.alreadyStored === 1 ? 'was' : 'were'} already known).`,
  ];
  for (const w of m.warnings) out.push(`warning: ${w}`);
  if (!m.predicted) out.push('No prediction: run `pipedejavu train` to compare measured with predicted.');
  return textLines(out);
}

/** Generation on one device: time to first token, decode speed, the KV cache and what fits. */
export function renderGeneration(g: GenerationPrediction, deviceName = g.device): string {
  const step = (s: GenerationPrediction['firstStep']): string =>
    `${ms(s.stepUs)} (${s.bound}-bound: ${formatBytes(s.bytes)} moved, ${(s.flops / 1e9).toFixed(2)} GFLOP` +
    (s.attentionUs > 0 ? `; attention ${ms(s.attentionUs)})` : ')');
  const lines = [
    `${g.workload} on ${deviceName}, ${g.dtype}${g.weights !== g.dtype ? ` (${g.weights} weights)` : ''}, batch ${g.batch}: prompt ${count(g.prompt, 'token')}, then ${g.tokens} generated`,
    `engine               ${g.engine} (the profile's measurements)`,
    `time to first token  ${ms(g.ttftUs)}`,
    `decode step          first ${step(g.firstStep)}`,
    `                     last  ${step(g.lastStep)}`,
    `decode               ${ms(g.decodeUs)} for ${count(g.tokens, 'step')}: ${g.tokensPerSecond.toFixed(1)} tokens/s`,
    `KV cache read        ${g.kvDataflow}: ${KV_DATAFLOWS[g.kvDataflow]}`,
    `memory               weights ${formatBytes(g.weightBytes)} + KV cache ${formatBytes(g.kvCacheBytes)} at ${count(g.prompt + g.tokens, 'token')} = ${formatBytes(g.memoryBytes)}` +
      (g.deviceMemoryBytes === null
        ? ' (device memory unknown)'
        : ` of ${formatBytes(g.deviceMemoryBytes)}: ${g.fits ? 'fits' : 'does NOT fit'}`),
  ];
  if (g.largest)
    lines.push(
      `largest that fits    batch ${g.largest.batch} at ${count(g.prompt + g.tokens, 'token')}; ${count(g.largest.context, 'token')} at batch ${g.batch}`,
    );
  for (const w of g.warnings) lines.push(`warning: ${w}`);
  return textLines(lines);
}
