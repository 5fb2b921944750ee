/** Reading a serving trace from a file: JSONL and ShareGPT, streamed, and refused in one line when bad. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServingTrace } from '../../../../src-main/adapters/files/serving-trace.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'serving-trace-'));
function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('readServingTrace', () => {
  it('reads JSONL rows (blank lines skipped, last newline optional)', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ t: i / 10, prompt: 100 + i, output: 7 }));
    const t = await readServingTrace(
      file('ok.jsonl', `${rows.slice(0, 10).join('\n')}\n\n${rows.slice(10).join('\n')}`),
    );
    expect(t.format).toBe('jsonl');
    expect(t.rows).toBe(3000);
    expect(t.atSeconds?.[2999]).toBeCloseTo(299.9, 9);
    expect(t.prompt[2999]).toBe(3099);
  });

  it('reads a ShareGPT array over many stream pieces, without arrival times', async () => {
    const conv = (i: number): object => ({
      id: `c${i}`,
      conversations: [
        { from: 'human', value: 'q'.repeat(40 + (i % 5)) },
        { from: 'gpt', value: 'a]}"'.repeat(100) },
      ],
    });
    const n = 3000; // about 1.5 MB: more than one 1 MiB read
    const t = await readServingTrace(file('share.json', JSON.stringify(Array.from({ length: n }, (_, i) => conv(i)))));
    expect(t).toMatchObject({ format: 'sharegpt', rows: n, atSeconds: null, skipped: 0 });
    expect(t.prompt[3]).toBe(11);
    expect(t.output[0]).toBe(100);
    expect(t.lengthRule).toMatch(/no tokenizer/);
  });

  it('refuses a JSONL file cut short, naming the file and the row', async () => {
    const f = file('cut.jsonl', '{"t": 0, "prompt": 5, "output": 5}\n{"t": 1, "prompt": 5, "out');
    await expect(readServingTrace(f)).rejects.toThrow(`${f} row 2: not JSON`);
    await expect(readServingTrace(f)).rejects.toThrow(/the last line has no newline: is the file cut short\?/);
  });

  it('refuses a ShareGPT file cut short', async () => {
    const f = file(
      'cut.json',
      '[{"conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "yo"}]}, {"conv',
    );
    await expect(readServingTrace(f)).rejects.toThrow(`${f} ends inside the array, after 1 conversations`);
  });

  it('refuses a bad row in one line naming it', async () => {
    const f = file('bad.jsonl', '{"t": 0, "prompt": 5, "output": 5}\n{"t": 1, "prompt": "many", "output": 5}\n');
    await expect(readServingTrace(f)).rejects.toThrow(
      `${f} row 2: prompt must be a whole number of tokens from 1 to 10000000, not "many"`,
    );
  });

  it('refuses a line over the cap before holding it whole, and more rows than the cap', async () => {
    const huge = file('huge.jsonl', `{"t": 0, "prompt": 5, "output": 5}\n{"pad": "${'x'.repeat(3 << 20)}"}\n`);
    await expect(readServingTrace(huge, { maxLineChars: 1 << 20 })).rejects.toThrow(
      /row 2: longer than 1048576 characters; refused/,
    );
    const many = file('many.jsonl', '{"prompt": 5, "output": 5}\n'.repeat(4));
    await expect(readServingTrace(many, { maxRows: 3 })).rejects.toThrow(/row 4: the trace holds more than 3 requests/);
  });

  it('refuses an empty file, a file of blank lines, a folder and a missing file', async () => {
    await expect(readServingTrace(file('empty.jsonl', ''))).rejects.toThrow(/empty\.jsonl is empty/);
    await expect(readServingTrace(file('blank.jsonl', '\n \n'))).rejects.toThrow(/is empty/);
    await expect(readServingTrace(dir)).rejects.toThrow(/is a directory/);
    await expect(readServingTrace(path.join(dir, 'none.jsonl'))).rejects.toThrow(/no such file/);
  });
});
