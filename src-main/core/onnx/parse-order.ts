/**
 * Topological order of a graph's nodes, keeping the file's order wherever it already is one
 * (ONNX requires sorted graphs; some tools write them unsorted). Pure.
 */
import { UserError } from '../errors.js';
import type { OnnxNode } from './parse-types.js';

/** Min-heap of node indices: the ready node that comes first in the file runs first. */
class IndexHeap {
  private readonly a: number[] = [];
  get size(): number {
    return this.a.length;
  }
  push(v: number): void {
    const a = this.a;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((a[p] ?? 0) <= v) break;
      a[i] = a[p] ?? 0;
      i = p;
    }
    a[i] = v;
  }
  pop(): number {
    const a = this.a;
    const top = a[0] ?? 0;
    const last = a.pop() ?? 0;
    if (a.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const r = l + 1;
      const c = r < a.length && (a[r] ?? 0) < (a[l] ?? 0) ? r : l;
      if ((a[c] ?? 0) >= last) break;
      a[i] = a[c] ?? 0;
      i = c;
    }
    a[i] = last;
    return top;
  }
}

/**
 * Nodes in a topological order. A tensor no node produces (graph input, initializer, or a
 * name the file never defines) is taken as available. Throws a UserError naming a node on a
 * cycle, or a tensor two nodes both produce.
 */
export function topologicalOrder(nodes: readonly OnnxNode[]): OnnxNode[] {
  const producer = new Map<string, number>();
  nodes.forEach((n, i) => {
    for (const o of n.outputs) {
      if (!o) continue;
      const other = producer.get(o);
      if (other !== undefined && other !== i) {
        throw new UserError(
          `invalid ONNX graph: tensor "${o}" is produced by two nodes (${label(nodes[other])} and ${label(n)})`,
        );
      }
      producer.set(o, i);
    }
  });
  const waiting = new Array<number>(nodes.length).fill(0);
  const consumers: number[][] = nodes.map(() => []);
  nodes.forEach((n, i) => {
    const seen = new Set<number>();
    for (const input of n.inputs) {
      const p = input ? producer.get(input) : undefined;
      if (p === undefined || seen.has(p)) continue;
      seen.add(p);
      waiting[i] = (waiting[i] ?? 0) + 1;
      consumers[p]?.push(i);
    }
  });
  const ready = new IndexHeap();
  waiting.forEach((w, i) => {
    if (w === 0) ready.push(i);
  });
  const order: OnnxNode[] = [];
  while (ready.size > 0) {
    const i = ready.pop();
    const n = nodes[i];
    if (n) order.push(n);
    for (const c of consumers[i] ?? []) {
      const w = (waiting[c] ?? 0) - 1;
      waiting[c] = w;
      if (w === 0) ready.push(c);
    }
  }
  if (order.length < nodes.length) {
    const stuck = onCycle(nodes, producer, waiting);
    const left = nodes.length - order.length;
    throw new UserError(
      `invalid ONNX graph: it has a cycle (node ${label(nodes[stuck])} and ${left - 1} other node(s) wait on each other's outputs)`,
    );
  }
  return order;
}

/** A node on a cycle: walk from a node still waiting to a waiting producer until one repeats. */
function onCycle(nodes: readonly OnnxNode[], producer: Map<string, number>, waiting: number[]): number {
  let at = waiting.findIndex((w) => w > 0);
  const seen = new Set<number>();
  while (!seen.has(at)) {
    seen.add(at);
    const next = (nodes[at]?.inputs ?? [])
      .map((input) => (input ? producer.get(input) : undefined))
      .find((p) => p !== undefined && (waiting[p] ?? 0) > 0);
    if (next === undefined) return at;
    at = next;
  }
  return at;
}

function label(n: OnnxNode | undefined): string {
  if (!n) return '?';
  return n.name ? `"${n.name}" (${n.opType})` : `${n.opType} -> ${n.outputs[0] ?? '?'}`;
}
