/**
 * A column of numbers that grows by doubling a typed array: a million rows in 8 MB, not a million
 * boxed numbers, and no copy per push. Pure.
 */
class Column<A extends Float64Array | Int32Array> {
  private data: A;
  length = 0;

  constructor(private readonly make: (n: number) => A) {
    this.data = make(1024);
  }

  push(x: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = x;
  }

  /** The values pushed so far (a view: pushing more may leave it behind). */
  values(): A {
    return this.data.subarray(0, this.length) as A;
  }
}

export const floatColumn = (): Column<Float64Array> => new Column((n) => new Float64Array(n));
export const intColumn = (): Column<Int32Array> => new Column((n) => new Int32Array(n));
