/**
 * Compile-time checks that tie two lists written apart, as ky does: a list that must stay a literal
 * (a feature order, a preference ranking) is held to the table it draws from, so adding a name to
 * one and not the other does not compile. Types only. Use:
 *   type _Ranked = Expect<Equal<(typeof PREFERENCE)[number], PredictorName>>;
 */

/** true when A and B are the same type (not merely assignable either way), else false. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when T is true. */
export type Expect<T extends true> = T;
