/**
 * Large typed arrays that a search takes for its tables and gives back when it ends, so that the
 * next search (the next space, recomputation or ZeRO variant of one request) reuses them instead
 * of allocating and zeroing megabytes again. Pure. A taken array holds stale values: its user
 * writes what it reads. An array taken while its slot is out (a search inside a search) is a new
 * one; arrays over MAX_KEPT_BYTES are not kept.
 */

/** Largest array kept between searches (bytes): a cluster space's tables are not held for good. */
const MAX_KEPT_BYTES = 64 * 2 ** 20;

type Kind = 'f64' | 'i32';
type ArrayOf<K extends Kind> = K extends 'f64' ? Float64Array<ArrayBuffer> : Int32Array<ArrayBuffer>;
type Taken = Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

interface Slot {
  buffer: ArrayBuffer | null;
  out: boolean;
}

const slots = new Map<string, Slot>();

/** The arrays one search took, each by its slot name; give() hands them all back. */
export class ScratchLease {
  private readonly taken = new Map<string, Taken>();

  /** An array of at least n entries for slot `name` (its length may exceed n when `atLeast`). */
  take<K extends Kind>(name: string, kind: K, n: number, atLeast = false): ArrayOf<K> {
    const key = `${kind}:${name}`;
    const slot = slots.get(key) ?? { buffer: null, out: false };
    slots.set(key, slot);
    const bytes = kind === 'f64' ? 8 : 4;
    let array: Taken;
    if (!slot.out && slot.buffer && slot.buffer.byteLength >= n * bytes) {
      const whole = kind === 'f64' ? new Float64Array(slot.buffer) : new Int32Array(slot.buffer);
      array = atLeast ? whole : whole.subarray(0, n);
      slot.out = true;
      this.taken.set(key, whole);
    } else {
      array = kind === 'f64' ? new Float64Array(n) : new Int32Array(n);
      if (!slot.out) {
        slot.out = true;
        this.taken.set(key, array);
      }
    }
    return array as ArrayOf<K>;
  }

  /** Slot `name` now holds `array` (one that grew past what was taken), given back with the rest. */
  replace(name: string, kind: Kind, array: Taken): void {
    const key = `${kind}:${name}`;
    if (this.taken.has(key)) this.taken.set(key, array);
  }

  /** Hands every array back for the next search; the lease's arrays must not be used after. */
  give(): void {
    for (const [key, array] of this.taken) {
      const slot = slots.get(key);
      if (!slot) continue;
      slot.out = false;
      if (array.byteLength <= MAX_KEPT_BYTES) slot.buffer = array.buffer;
    }
    this.taken.clear();
  }
}
