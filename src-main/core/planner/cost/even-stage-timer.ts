/**
 * Per-microbatch time of layers [from, to) on a group whose replicas are alike, or on one replica
 * (CostTables.evenStageTimer): n samples on the replica dealt the most, each layer at its slowest
 * member, plus the replica's tensor-parallel all-reduces for n samples; it adds up over layers.
 * An object, not a closure: the searches ask for every range, and its method inlines where a
 * closure's returned number is boxed. Pure.
 */
export class EvenStageTimer {
  constructor(
    /** Samples of a microbatch on the replica dealt the most. */
    private readonly n: number,
    /** Prefix sums of the replica's per-sample step time, per layer. */
    private readonly step: Float64Array,
    /** Prefix counts of the layers some member has no time for. */
    private readonly missing: Int32Array,
    /** Prefix sums of the replica's all-reduces for n samples (zeros without tensor parallelism). */
    private readonly comm: Float64Array,
  ) {}

  /** µs; Infinity when some layer of the range cannot run there. */
  time(from: number, to: number): number {
    if ((this.missing[to] as number) - (this.missing[from] as number) > 0) return Infinity;
    return (
      this.n * ((this.step[to] as number) - (this.step[from] as number)) +
      (this.comm[to] as number) -
      (this.comm[from] as number)
    );
  }
}
