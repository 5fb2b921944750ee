/**
 * The ORT trace (ONNX Runtime's profiler output: Chrome trace JSON written by enableProfiling): the
 * per-run kernel time is the sum of the `<node>_kernel_time` events (cat "Node") that
 * fall inside each `model_run` event. Pure parsing of the file's text.
 */

interface TraceEvent {
  cat?: unknown;
  name?: unknown;
  ts?: unknown;
  dur?: unknown;
  args?: { op_name?: unknown; provider?: unknown };
}

export interface TraceRuns {
  /** Per model run, in order: summed kernel time of its nodes (µs). */
  kernelUs: number[];
  /** Per model run: ORT's own model_run duration (µs), which includes its input/output handling. */
  modelRunUs: number[];
  /** Execution providers that ran the nodes, e.g. ["CPUExecutionProvider"]. */
  providers: string[];
  /** Per op type (args.op_name), per model run: summed kernel time (µs); e.g. MemcpyFromHost on CUDA. */
  byOpUs: Record<string, number[]>;
  /** Per node name, per model run: kernel time (µs). Fused or inserted nodes carry ORT's names. */
  byNodeUs: Record<string, number[]>;
  /** Op type of each node name seen. */
  nodeOps: Record<string, string>;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function parseTrace(text: string): TraceRuns {
  let events: unknown;
  try {
    events = JSON.parse(text);
  } catch {
    throw new Error('ORT trace is not valid JSON');
  }
  if (!Array.isArray(events)) throw new Error('ORT trace is not an array of events');
  const runs: { ts: number; dur: number; kernel: number; byOp: Map<string, number>; byNode: Map<string, number> }[] =
    [];
  const nodes: { ts: number; dur: number; provider: string; op: string; node: string }[] = [];
  for (const raw of events as TraceEvent[]) {
    if (!raw || !isNum(raw.ts) || !isNum(raw.dur)) continue;
    if (raw.cat === 'Session' && raw.name === 'model_run')
      runs.push({ ts: raw.ts, dur: raw.dur, kernel: 0, byOp: new Map(), byNode: new Map() });
    else if (raw.cat === 'Node' && typeof raw.name === 'string' && raw.name.endsWith('_kernel_time')) {
      nodes.push({
        ts: raw.ts,
        dur: raw.dur,
        provider: String(raw.args?.provider ?? 'unknown'),
        op: String(raw.args?.op_name ?? 'unknown'),
        node: raw.name.slice(0, -'_kernel_time'.length),
      });
    }
  }
  runs.sort((a, b) => a.ts - b.ts);
  const providers = new Set<string>();
  const ops = new Set<string>();
  const nodeOps: Record<string, string> = {};
  let r = 0;
  for (const n of nodes.sort((a, b) => a.ts - b.ts)) {
    while (r < runs.length && n.ts > (runs[r]?.ts ?? 0) + (runs[r]?.dur ?? 0)) r++;
    const run = runs[r];
    if (run && n.ts >= run.ts) {
      run.kernel += n.dur;
      run.byOp.set(n.op, (run.byOp.get(n.op) ?? 0) + n.dur);
      run.byNode.set(n.node, (run.byNode.get(n.node) ?? 0) + n.dur);
      nodeOps[n.node] = n.op;
      providers.add(n.provider);
      ops.add(n.op);
    }
  }
  const byOpUs: Record<string, number[]> = {};
  for (const op of [...ops].sort()) byOpUs[op] = runs.map((x) => x.byOp.get(op) ?? 0);
  const byNodeUs: Record<string, number[]> = {};
  for (const node of Object.keys(nodeOps)) byNodeUs[node] = runs.map((x) => x.byNode.get(node) ?? 0);
  return {
    kernelUs: runs.map((x) => x.kernel),
    modelRunUs: runs.map((x) => x.dur),
    providers: [...providers].sort(),
    byOpUs,
    byNodeUs,
    nodeOps,
  };
}

/** The trace without one node (e.g. a sink the harness added): its time, op and name taken out. */
export function withoutNode(trace: TraceRuns, node: string): TraceRuns {
  const own = trace.byNodeUs[node];
  const op = trace.nodeOps[node];
  if (!own || op === undefined) return trace;
  const minus = (v: number[]): number[] => v.map((x, i) => Math.max(0, x - (own[i] ?? 0)));
  const byOpUs = { ...trace.byOpUs };
  const opUs = byOpUs[op];
  if (opUs) {
    const left = minus(opUs);
    if (Object.entries(trace.nodeOps).some(([n, o]) => o === op && n !== node)) byOpUs[op] = left;
    else delete byOpUs[op];
  }
  const byNodeUs = { ...trace.byNodeUs };
  delete byNodeUs[node];
  const nodeOps = { ...trace.nodeOps };
  delete nodeOps[node];
  return { ...trace, kernelUs: minus(trace.kernelUs), byOpUs, byNodeUs, nodeOps };
}
