import { describe, expect, it } from 'vitest';
import type { Equal, Expect } from '../../../../src-main/core/util/type-checks.js';

// The checks are types: tsc (npm run typecheck) is what runs them; these lines fail it when Equal is wrong.
type _Same = Expect<Equal<'a' | 'b', 'b' | 'a'>>;
// @ts-expect-error a list with a name more is not equal
type _More = Expect<Equal<'a' | 'b', 'a'>>;
// @ts-expect-error assignable one way (a literal to its string) is not equal
type _Wider = Expect<Equal<'a', string>>;
// @ts-expect-error unknown is not every type it accepts
type _Unknown = Expect<Equal<unknown, 'a'>>;

describe('Equal and Expect', () => {
  it('are types only: tsc checks the lines above', () => {
    const checks: [_Same] = [true];
    expect(checks).toEqual([true]);
  });
});
