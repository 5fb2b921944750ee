/** The hostile bench's runner and judge: a hang is killed and named, a marker or a changed file is the worst verdict. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstLine, judge, payloadCodeLines, runChild, type RunResult } from '../../../bench/lib/hostile-run.js';
import { tempDir } from '../../helpers/cli.js';

const result = (over: Partial<RunResult> = {}): RunResult => ({
  code: 1,
  stdout: '',
  stderr: 'pipedejavu: error: bad input\n',
  wallS: 0.1,
  peakRssBytes: 50 * 2 ** 20,
  hang: false,
  ...over,
});

describe('hostile bench judge', () => {
  it('ranks code execution over a changed file over a hang over memory over a missing message', () => {
    const dir = tempDir();
    const marker = path.join(dir, 'MARKER');
    writeFileSync(marker, '');
    const all = {
      result: result({ hang: true, peakRssBytes: 2 * 1024 ** 3, code: null, stderr: '' }),
      expect: 'refuse' as const,
      protectedBefore: { f: 'a' },
      protectedAfter: { f: 'b' },
    };
    expect(judge({ ...all, marker }).verdict).toBe('EXEC');
    expect(judge(all).verdict).toBe('OVERWRITE');
    expect(judge({ ...all, protectedAfter: { f: 'a' } }).verdict).toBe('HANG');
    expect(judge({ ...all, protectedAfter: { f: 'a' }, result: { ...all.result, hang: false } }).verdict).toBe(
      'MEMORY',
    );
    expect(judge({ result: result({ code: 0 }), expect: 'refuse' }).verdict).toBe('NO-MESSAGE');
    expect(
      judge({ result: result({ stderr: 'TypeError: x is undefined\n    at f (a.js:1:2)\n' }), expect: 'refuse' })
        .verdict,
    ).toBe('NO-MESSAGE');
    expect(judge({ result: result(), expect: 'refuse' })).toEqual({ verdict: 'ok', why: '' });
    expect(judge({ result: result({ code: 0, stderr: '' }), expect: 'succeed' }).verdict).toBe('ok');
  });

  it('finds a payload written as a line of code in emitted scripts, not inside a comment', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'emit'));
    writeFileSync(path.join(dir, 'emit', 'job.sbatch'), '#!/bin/bash\n# component 0: n1 touch /x\necho ok\n');
    expect(payloadCodeLines(path.join(dir, 'emit'), 'touch /x')).toBe(0);
    writeFileSync(path.join(dir, 'emit', 'job.sbatch'), '#!/bin/bash\n# component 0: n1\ntouch /x\n');
    expect(payloadCodeLines(path.join(dir, 'emit'), 'touch /x')).toBe(1);
    // Python ends a line at a bare CR too.
    writeFileSync(path.join(dir, 'emit', 'm.py'), '# layers: r\ropen("/m", "w")\n');
    expect(payloadCodeLines(path.join(dir, 'emit'), 'open("/m"')).toBe(1);
  });
});

describe.skipIf(process.platform !== 'linux')('hostile bench runner', () => {
  it('kills a child that does not end by the limit and calls it a hang', async () => {
    const r = await runChild(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { limitMs: 1500 });
    expect(r.hang).toBe(true);
    expect(r.code).toBeNull();
    expect(judge({ result: r, expect: 'refuse' }).verdict).toBe('HANG');
  });

  it('keeps the exit code, the first line and the peak memory of a child that ends', async () => {
    const r = await runChild(process.execPath, ['-e', 'console.error("\\nfirst\\nsecond"); process.exit(3)']);
    expect(r).toMatchObject({ code: 3, hang: false });
    expect(firstLine(r)).toBe('first');
  });
});
