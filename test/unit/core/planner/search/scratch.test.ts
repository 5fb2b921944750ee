import { describe, expect, it } from 'vitest';
import { ScratchLease } from '../../../../../src-main/core/planner/search/scratch.js';

describe('ScratchLease', () => {
  it('hands the next lease the arrays the last one gave back, stale values included', () => {
    const first = new ScratchLease();
    const a = first.take('test-reuse', 'f64', 100);
    a.fill(7);
    first.give();
    const second = new ScratchLease();
    const b = second.take('test-reuse', 'f64', 50);
    expect(b.length).toBe(50);
    expect(b.buffer).toBe(a.buffer);
    expect(b[0]).toBe(7);
    // A larger one than kept is new, and is kept in its place.
    const c = new ScratchLease().take('test-reuse-int', 'i32', 10);
    expect(c.length).toBe(10);
    second.give();
  });

  it('gives a new array while the slot is out, so two searches never share one', () => {
    const outer = new ScratchLease();
    const a = outer.take('test-nested', 'f64', 10);
    const inner = new ScratchLease();
    const b = inner.take('test-nested', 'f64', 10);
    expect(b.buffer).not.toBe(a.buffer);
    inner.give();
    outer.give();
    const next = new ScratchLease().take('test-nested', 'f64', 10);
    expect(next.buffer).toBe(a.buffer);
  });

  it('keeps an array that grew past what was taken (replace), and gives the whole of it when asked for at least n', () => {
    const lease = new ScratchLease();
    lease.take('test-grow', 'i32', 4);
    const grown = new Int32Array(64);
    lease.replace('test-grow', 'i32', grown);
    lease.give();
    const again = new ScratchLease().take('test-grow', 'i32', 4, true);
    expect(again.buffer).toBe(grown.buffer);
    expect(again.length).toBe(64);
  });
});
