/**
 * Gantt geometry of a simulated pipeline step (SimEvent[] from the planner's simulator): one
 * row per stage (forwards, backwards and its gradient all-reduce) and, between consecutive
 * stages, one row for the link (activations forward on the upper lane, gradients back on
 * the lower lane). Pure: the chart component only scales it to pixels.
 */
import type { SimEvent } from '../../../src-main/api/view-models.js';

export type GanttPhase = SimEvent['phase'];

export interface GanttRow {
  kind: 'stage' | 'link';
  /** The stage, or for a link the stage before it. */
  stage: number;
  label: string;
  /** Lanes in the row: 1, or 2 for a link carrying both directions. */
  lanes: number;
}

export interface GanttBar {
  row: number;
  lane: number;
  phase: GanttPhase;
  microbatch: number;
  startUs: number;
  endUs: number;
  /** Short text drawn inside the bar when it fits: F3, B3, 3, AR. */
  text: string;
  /** Hover text. */
  title: string;
}

export interface GanttGeometry {
  rows: GanttRow[];
  bars: GanttBar[];
  totalUs: number;
  /** Phases present, for the legend. */
  phases: GanttPhase[];
}

const PHASE_ORDER: GanttPhase[] = ['forward', 'backward', 'send', 'allreduce'];

function barText(e: SimEvent): string {
  switch (e.phase) {
    case 'forward':
      return `F${e.microbatch}`;
    case 'backward':
      return `B${e.microbatch}`;
    case 'allreduce':
      return 'AR';
    case 'send':
      return String(e.microbatch);
  }
}

function describe(e: SimEvent, stages: number): string {
  const span = `${Math.round(e.startUs)}–${Math.round(e.endUs)} µs`;
  if (e.phase === 'send') {
    const to = e.direction === 'backward' ? e.stage - 1 : e.stage + 1;
    const what = e.direction === 'backward' ? 'gradients' : 'activations';
    return `microbatch ${e.microbatch}: ${what} stage ${e.stage} → ${to} (${span})`;
  }
  if (e.phase === 'allreduce') return `stage ${e.stage}: gradient all-reduce (${span})`;
  const of = stages > 1 ? ` on stage ${e.stage}` : '';
  return `microbatch ${e.microbatch}: ${e.phase}${of}, ${e.device} (${span})`;
}

export function ganttGeometry(events: readonly SimEvent[]): GanttGeometry {
  const stageDevice = new Map<number, string>();
  for (const e of events) if (e.phase !== 'send' && !stageDevice.has(e.stage)) stageDevice.set(e.stage, e.device);
  for (const e of events) if (!stageDevice.has(e.stage)) stageDevice.set(e.stage, e.device);
  const stages = [...stageDevice.keys()].sort((a, b) => a - b);
  // Which links carry which directions: link i joins stage i and i + 1.
  const linkDirs = new Map<number, Set<'forward' | 'backward'>>();
  for (const e of events) {
    if (e.phase !== 'send') continue;
    const dir = e.direction ?? 'forward';
    const link = dir === 'backward' ? e.stage - 1 : e.stage;
    const set = linkDirs.get(link) ?? new Set();
    set.add(dir);
    linkDirs.set(link, set);
  }
  const rows: GanttRow[] = [];
  const stageRow = new Map<number, number>();
  const linkRow = new Map<number, number>();
  for (const s of stages) {
    stageRow.set(s, rows.length);
    rows.push({ kind: 'stage', stage: s, label: `Stage ${s} · ${stageDevice.get(s) ?? ''}`, lanes: 1 });
    const dirs = linkDirs.get(s);
    if (dirs) {
      linkRow.set(s, rows.length);
      rows.push({ kind: 'link', stage: s, label: `Link ${s} ↔ ${s + 1}`, lanes: dirs.size === 2 ? 2 : 1 });
    }
  }
  const bars: GanttBar[] = [];
  let totalUs = 0;
  const phases = new Set<GanttPhase>();
  for (const e of events) {
    if (!(e.endUs >= e.startUs)) continue;
    totalUs = Math.max(totalUs, e.endUs);
    phases.add(e.phase);
    let row: number | undefined;
    let lane = 0;
    if (e.phase === 'send') {
      const dir = e.direction ?? 'forward';
      const link = dir === 'backward' ? e.stage - 1 : e.stage;
      row = linkRow.get(link);
      const r = row === undefined ? undefined : rows[row];
      lane = r && r.lanes === 2 && dir === 'backward' ? 1 : 0;
    } else row = stageRow.get(e.stage);
    if (row === undefined) continue;
    bars.push({
      row,
      lane,
      phase: e.phase,
      microbatch: e.microbatch,
      startUs: e.startUs,
      endUs: e.endUs,
      text: barText(e),
      title: describe(e, stages.length),
    });
  }
  return { rows, bars, totalUs, phases: PHASE_ORDER.filter((p) => phases.has(p)) };
}
