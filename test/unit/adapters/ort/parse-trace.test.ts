import { describe, expect, it } from 'vitest';
import { parseTrace, withoutNode } from '../../../../src-main/adapters/ort/parse-trace.js';

/** An ORT trace of `runs` model runs, each running the given nodes in order ([name, op, µs]). */
function trace(runs: number, nodes: [string, string, number][]): string {
  const events: unknown[] = [];
  for (let r = 0; r < runs; r++) {
    const ts = r * 1000;
    events.push({ cat: 'Session', name: 'model_run', ts, dur: 900 });
    let at = ts + 10;
    for (const [name, op, us] of nodes) {
      events.push({
        cat: 'Node',
        name: `${name}_kernel_time`,
        ts: at,
        dur: us + r,
        args: { op_name: op, provider: 'CPUExecutionProvider' },
      });
      at += us + r + 1;
    }
  }
  return JSON.stringify(events);
}

describe('ORT trace', () => {
  it('sums the kernel time of each run, per op and per node', () => {
    const t = parseTrace(
      trace(2, [
        ['add', 'Add', 100],
        ['sink', 'Slice', 3],
      ]),
    );
    expect(t.kernelUs).toEqual([103, 105]);
    expect(t.byOpUs).toEqual({ Add: [100, 101], Slice: [3, 4] });
    expect(t.nodeOps).toEqual({ add: 'Add', sink: 'Slice' });
  });

  it('takes a harness node out: its time, its op where no other node has it, its name', () => {
    const t = withoutNode(
      parseTrace(
        trace(2, [
          ['add', 'Add', 100],
          ['sink', 'Slice', 3],
        ]),
      ),
      'sink',
    );
    expect(t.kernelUs).toEqual([100, 101]);
    expect(t.byOpUs).toEqual({ Add: [100, 101] });
    expect(t.byNodeUs).toEqual({ add: [100, 101] });
    expect(t.nodeOps).toEqual({ add: 'Add' });
  });

  it("keeps the op of the kernel's own nodes of that type, and a trace without the node as it is", () => {
    const t = parseTrace(
      trace(1, [
        ['slice', 'Slice', 50],
        ['sink', 'Slice', 3],
      ]),
    );
    expect(withoutNode(t, 'sink').byOpUs).toEqual({ Slice: [50] });
    expect(withoutNode(t, 'absent')).toBe(t);
  });
});
