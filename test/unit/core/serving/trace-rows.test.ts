/** A trace's rows as columns, and a JSON array's elements found in text fed piece by piece. */
import { describe, expect, it } from 'vitest';
import { approxTokens, JsonArraySplitter, TraceColumns } from '../../../../src-main/core/serving/trace-rows.js';

function split(text: string, piece: number, maxChars = 1e6): string[] {
  const out: string[] = [];
  const s = new JsonArraySplitter((t) => out.push(t), maxChars);
  for (let i = 0; i < text.length; i += piece) s.feed(text.slice(i, i + piece));
  s.end();
  return out;
}

describe('JsonArraySplitter', () => {
  const elements = [{ a: '} ] [ {' }, { b: [1, { c: 'x\\"y' }] }, [2, 3], { d: 'é"' }];
  const text = ` [\n${elements.map((e) => JSON.stringify(e)).join(' ,\n ')} ]\n`;

  it.each([1, 2, 7, 1000])('hands over each element whole, fed %i characters at a time', (piece) => {
    expect(split(text, piece).map((t) => JSON.parse(t) as unknown)).toEqual(elements);
  });

  it('refuses a cut array, text after it, a non-array, a bare value and an element over the cap', () => {
    expect(() => split(text.slice(0, 30), 5)).toThrow(
      /ends inside the array, after 1 conversations: the file is cut short/,
    );
    expect(() => split(`${text} []`, 5)).toThrow(/has text after the array closes/);
    expect(() => split('{"a": 1}', 5)).toThrow(/does not start with "\["/);
    expect(() => split('[{"a": 1}, 7]', 5)).toThrow(/^row 2: is not a conversation object/);
    expect(() => split(`[{"a": "${'x'.repeat(500)}"}]`, 64, 100)).toThrow(/^row 1: longer than 100 characters/);
  });
});

describe('TraceColumns', () => {
  it('reads JSONL rows in either spelling into columns', () => {
    const c = new TraceColumns(10);
    c.addJsonl({ t: 0, prompt: 100, output: 20 }, 1);
    c.addJsonl({ arrival_time: 0.5, input_tokens: 200, output_tokens: 30 }, 2);
    const t = c.done();
    expect([...(t.atSeconds ?? [])]).toEqual([0, 0.5]);
    expect([...t.prompt]).toEqual([100, 200]);
    expect([...t.output]).toEqual([20, 30]);
    expect(t.lengthRule).toBe('token counts as the trace gives them');
  });

  it('counts ShareGPT turns at 4 characters a token and leaves out conversations with no answer', () => {
    const c = new TraceColumns(10);
    c.addShareGpt(
      {
        conversations: [
          { from: 'human', value: 'x'.repeat(9) },
          { from: 'gpt', value: 'abcd' },
        ],
      },
      1,
    );
    c.addShareGpt({ conversations: [{ from: 'human', value: 'hello' }] }, 2);
    const t = c.done();
    expect(t.atSeconds).toBeNull();
    expect([...t.prompt, ...t.output]).toEqual([3, 1]);
    expect(t.skipped).toBe(1);
    expect(t.lengthRule).toMatch(/ceil\(characters \/ 4\), no tokenizer/);
    expect(approxTokens('')).toBe(1);
  });

  it.each([
    [[{ t: 0, prompt: 1, output: 0 }], /^row 1: output must be a whole number of tokens from 1/],
    [[{ t: -1, prompt: 1, output: 1 }], /^row 1: arrival time "t" must be seconds from 0/],
    [[{ t: 1, prompt: 1 }], /^row 1: needs "prompt" and "output" token counts \(has t, prompt\)/],
    [[[1, 2]], /^row 1: is not a JSON object/],
    [
      [
        { t: 2, prompt: 1, output: 1 },
        { t: 1, prompt: 1, output: 1 },
      ],
      /^row 2: arrival time 1 s is before the row above's 2 s/,
    ],
    [
      [
        { t: 2, prompt: 1, output: 1 },
        { prompt: 1, output: 1 },
      ],
      /^row 2: has no arrival time/,
    ],
    [
      [
        { prompt: 1, output: 1 },
        {
          conversations: [
            { from: 'human', value: 'a' },
            { from: 'gpt', value: 'b' },
          ],
        },
      ],
      /^row 2: a sharegpt row in a jsonl trace/,
    ],
    [
      [
        { prompt: 1, output: 1 },
        { prompt: 1, output: 1 },
        { prompt: 1, output: 1 },
      ],
      /^row 3: the trace holds more than 2 requests/,
    ],
  ])('refuses a bad row in one line naming it (%j)', (rows, message) => {
    const c = new TraceColumns(2);
    expect(() => rows.forEach((r, i) => c.addJsonl(r, i + 1))).toThrow(message);
  });
});
