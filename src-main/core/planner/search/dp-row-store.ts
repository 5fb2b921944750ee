/**
 * Rows of L entries, each a value and an index, stored only for the rows a search builds (a DP
 * over a hybrid space often builds a few percent of its rows). Pure.
 */
import type { ScratchLease } from './scratch.js';

export class DpRowStore {
  /** Per row: its slot (−1 until first used); a row keeps its slot for the store's life. */
  readonly slot: Int32Array;
  private slots = 0;
  /** Values per slot and position: slot·L + l. */
  value: Float64Array;
  /** Indices per slot and position (the DP's argmin). */
  index: Int32Array;

  /** With a lease, the arrays start as the last search's (scratch.ts) under slot names `name`.value and .index. */
  constructor(
    rows: number,
    private readonly width: number,
    private readonly scratch?: { lease: ScratchLease; name: string },
  ) {
    this.slot = new Int32Array(rows).fill(-1);
    const n = Math.min(rows, 64) * width;
    const value = scratch ? scratch.lease.take(`${scratch.name}.value`, 'f64', n, true) : new Float64Array(n);
    const index = scratch ? scratch.lease.take(`${scratch.name}.index`, 'i32', n, true) : new Int32Array(n);
    // Whole slots, as many in both.
    const size = Math.floor(Math.min(value.length, index.length) / width) * width;
    this.value = value.subarray(0, size);
    this.index = index.subarray(0, size);
  }

  /** Where row r's entries start, a slot given on first use (the arrays double when full: read them after). */
  offset(r: number): number {
    let slot = this.slot[r] as number;
    if (slot < 0) {
      slot = this.slots++;
      this.slot[r] = slot;
      const need = (slot + 1) * this.width;
      if (need > this.value.length) {
        const size = Math.max(need, 2 * this.value.length);
        const value = new Float64Array(size);
        value.set(this.value);
        this.value = value;
        const index = new Int32Array(size);
        index.set(this.index);
        this.index = index;
        this.scratch?.lease.replace(`${this.scratch.name}.value`, 'f64', value);
        this.scratch?.lease.replace(`${this.scratch.name}.index`, 'i32', index);
      }
    }
    return slot * this.width;
  }

  /** Where row r's entries start, for a row already given a slot. */
  at(r: number): number {
    return (this.slot[r] as number) * this.width;
  }
}
