import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellDoubleQuote } from '../../../../../src-main/core/planner/exports/common.js';

describe('shellDoubleQuote', () => {
  it('gives bash back the text as it was, running nothing in it', () => {
    for (const text of ['RTX 4090,1xNVIDIA GeForce RTX 4090', 'a"b', '$(touch /tmp/x) `id` $HOME \\n', "it's"]) {
      const echoed = execFileSync('bash', ['-c', `printf %s ${shellDoubleQuote(text)}`], { encoding: 'utf8' });
      expect(echoed).toBe(text);
    }
    expect(shellDoubleQuote('RTX 4090')).toBe('"RTX 4090"');
  });
});
