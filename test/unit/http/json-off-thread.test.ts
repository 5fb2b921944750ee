/**
 * Bodies past OFF_THREAD_BYTES are parsed on a worker thread; smaller ones here. Both answer the
 * same value, and say not-json for text that is not JSON.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { JsonParser, OFF_THREAD_BYTES } from '../../../src-main/http/json-off-thread.js';

const parser = new JsonParser();
afterAll(() => parser.close());

/** A JSON body of at least `bytes` bytes, in memory of its own (as a large Buffer.concat gives). */
function bigBody(bytes: number): Buffer {
  const text = JSON.stringify({ fileName: 'x.onnx', dataBase64: 'QUFB'.repeat(Math.ceil(bytes / 4)), n: [1, 2] });
  return Buffer.from(text);
}

describe('JsonParser', () => {
  it('parses a small body here and a large one on the worker, to the same value', async () => {
    expect(await parser.parse(Buffer.from('{"a":[1,"é"]}'))).toEqual({ ok: true, value: { a: [1, 'é'] } });
    expect(await parser.parse(Buffer.alloc(0))).toEqual({ ok: true, value: {} });
    const body = bigBody(OFF_THREAD_BYTES * 3);
    const r = await parser.parse(body);
    expect(r.ok && (r.value as { n: number[] }).n).toEqual([1, 2]);
    expect(r.ok && (r.value as { dataBase64: string }).dataBase64.length).toBeGreaterThan(OFF_THREAD_BYTES * 3 - 4);
  });

  it('says not-json for a large body that is not JSON, and parses the next one', async () => {
    const broken = Buffer.concat([bigBody(OFF_THREAD_BYTES), Buffer.from('}')]);
    expect(await parser.parse(broken)).toEqual({ ok: false, why: 'not-json' });
    expect(await parser.parse(Buffer.from('nope'))).toEqual({ ok: false, why: 'not-json' });
    const again = await parser.parse(bigBody(OFF_THREAD_BYTES));
    expect(again.ok).toBe(true);
  });

  it('parses several large bodies at once, each to its own value', async () => {
    const bodies = [1, 2, 3].map((k) => Buffer.from(JSON.stringify({ k, pad: 'x'.repeat(OFF_THREAD_BYTES) })));
    const values = await Promise.all(bodies.map((b) => parser.parse(b)));
    expect(values.map((v) => v.ok && (v.value as { k: number }).k)).toEqual([1, 2, 3]);
  });

  it('leaves the memory a large body shares with other bytes as it was', async () => {
    const json = bigBody(OFF_THREAD_BYTES);
    const shared = Buffer.alloc(json.length + 10, 0x20);
    json.copy(shared, 5);
    const view = shared.subarray(5, 5 + json.length);
    expect((await parser.parse(view)).ok).toBe(true);
    expect(shared.length).toBe(json.length + 10);
    expect(shared.subarray(5, 5 + json.length).equals(json)).toBe(true);
  });
});
