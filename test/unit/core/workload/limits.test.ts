import { describe, expect, it } from 'vitest';
import { describedValue, outOfRange } from '../../../../src-main/core/workload/limits.js';

describe('outOfRange', () => {
  const range = { min: 1, max: 131_072 };
  it.each([
    ['inside', 4096, null],
    ['a bigint inside', 4096n, null],
    ['too large', 1e6, 'hidden_size 1000000 is out of range (1..131072)'],
    ['zero', 0, 'hidden_size 0 is out of range (1..131072)'],
    ['a fraction', 4096.5, 'hidden_size must be a whole number from 1 to 131072, got 4096.5'],
    ['a string', '512', 'hidden_size must be a number from 1 to 131072, got the string "512"'],
    ['a boolean', false, 'hidden_size must be a number from 1 to 131072, got the boolean false'],
    ['null', null, 'hidden_size must be a number from 1 to 131072, got null'],
    ['a list', [512], 'hidden_size must be a number from 1 to 131072, got a list'],
    ['an object', {}, 'hidden_size must be a number from 1 to 131072, got an object'],
  ])('%s', (_what, value, message) => {
    expect(outOfRange('hidden_size', value, range)).toBe(message);
  });

  it('a string value is quoted, cut and kept on one line', () => {
    expect(describedValue(`512\n${'x'.repeat(100)}`)).toBe(`the string "512\\n${'x'.repeat(36)}..."`);
  });
});
