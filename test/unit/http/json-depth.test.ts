/**
 * JSON request bodies are counted for depth on their bytes before they are parsed: past 64 levels
 * of arrays and objects the server answers one line (400) without parsing, brackets inside strings
 * do not count, and the server goes on answering while a deep body is refused. (How fast, and the
 * memory it takes, are bench figures: npm run bench:hostile -- serve-json-deep-8M.)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src-main/app/app-core.js';
import { MAX_BODY_BYTES, type RunningServer } from '../../../src-main/http/server.js';
import { jsonShapeRefusal, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../../src-main/http/json-depth.js';
import { tempDir } from '../../helpers/cli.js';
import { serveCore } from '../../helpers/http-server.js';

const TOKEN = 'test-token-depth-0123456789abcdef';
const DEPTH_LINE = `the request body nests deeper than ${MAX_JSON_DEPTH} levels`;

const arrays = (n: number, inner = ''): string => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;
const objects = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
/** `{"x": ...}` around `inner`: one level more than inner. */
const inObject = (inner: string): string => `{"x":${inner}}`;
const deeper = (text: string): boolean => jsonShapeRefusal(Buffer.from(text), MAX_JSON_DEPTH, Infinity) === 'deep';

let core: AppCore;
let server: RunningServer;

beforeAll(async () => {
  const dir = tempDir('pdjv-depth-');
  mkdirSync(path.join(dir, 'renderer'));
  writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html>');
  core = createAppCore({ dbPath: path.join(dir, 'db.sqlite'), transport: 'http', inProcessJobs: true });
  server = await serveCore(core, { token: TOKEN, rendererDir: path.join(dir, 'renderer') });
});

afterAll(async () => {
  await server.close();
  core.close();
});

async function post(channel: string, body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pipedejavu-token': TOKEN },
    body,
  });
  return { status: res.status, json: await res.json() };
}

describe('JSON depth, counted on the bytes', () => {
  it('counts arrays, objects and both mixed, up to 64 levels and not one more', () => {
    expect(deeper(arrays(64))).toBe(false);
    expect(deeper(arrays(65))).toBe(true);
    expect(deeper(objects(64))).toBe(false);
    expect(deeper(objects(65))).toBe(true);
    const mixed = (n: number): string => '[{"a":'.repeat(n / 2) + '1' + '}]'.repeat(n / 2);
    expect(deeper(mixed(64))).toBe(false);
    expect(deeper(mixed(66))).toBe(true);
    // Siblings do not add up: depth is how far inside, not how many.
    expect(deeper(`[${Array.from({ length: 1000 }, () => arrays(60)).join(',')}]`)).toBe(false);
    expect(deeper('')).toBe(false);
    expect(deeper('{}')).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(deeper(inObject(JSON.stringify('['.repeat(10_000))))).toBe(false);
    expect(deeper(inObject(JSON.stringify(`"${'{'.repeat(10_000)}`)))).toBe(false);
    expect(deeper(inObject(JSON.stringify(`\\"${'['.repeat(10_000)}\\\\"`)))).toBe(false);
    expect(deeper(inObject(JSON.stringify(`\u0022${'['.repeat(100)}`)))).toBe(false);
    // An escaped backslash ends in a real quote: the brackets after it count again.
    expect(deeper(`{"s":"\\\\","t":${arrays(64)}}`)).toBe(true);
    expect(deeper(`{"s":"\\\\\\"","t":${arrays(63)}}`)).toBe(false);
    // Keys are strings too.
    expect(deeper(`{"${'['.repeat(1000)}":1}`)).toBe(false);
  });

  it('agrees with JSON.parse on what is valid and how deep', () => {
    for (const text of [arrays(64), objects(64), inObject(JSON.stringify('[[[\\"]]]')), '[1,[2,[3]],{"a":[4]}]']) {
      expect(() => JSON.parse(text) as unknown).not.toThrow();
      expect(deeper(text)).toBe(false);
    }
  });
});

describe('deep JSON bodies over HTTP', () => {
  it('refuses a body past 64 levels with one line (400), and parses one at 64', async () => {
    for (const body of [inObject(arrays(64)), objects(65), `{"a":[{"b":${arrays(63)}}]}`]) {
      const r = await post('app:info', body);
      expect(r).toEqual({ status: 400, json: { ok: false, error: { code: 'invalid', message: DEPTH_LINE } } });
    }
    // 64 levels are parsed: app:info then refuses the unknown key, as it would any.
    const ok = await post('app:info', inObject(arrays(63)));
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect((ok.json as { error: { message: string } }).error.message).not.toBe(DEPTH_LINE);
    // Brackets in a string are text: the request is parsed and answered.
    expect(await post('app:info', '{}')).toMatchObject({ status: 200, json: { ok: true } });
    const text = await post('workload:fit', JSON.stringify({ workload: '['.repeat(150), mode: 'inference' }));
    expect((text.json as { error: { message: string } }).error.message).not.toBe(DEPTH_LINE);
  });

  it('refuses a body of more than 100,000 values (a flat array parses for seconds), counting no comma inside a string', async () => {
    const wide = `{"virtual":[${Array.from({ length: MAX_JSON_VALUES + 1 }, () => '1').join(',')}]}`;
    expect(jsonShapeRefusal(Buffer.from(wide), MAX_JSON_DEPTH, MAX_JSON_VALUES)).toBe('wide');
    const most = `[${Array.from({ length: MAX_JSON_VALUES }, () => '1').join(',')}]`;
    expect(jsonShapeRefusal(Buffer.from(most), MAX_JSON_DEPTH, MAX_JSON_VALUES)).toBeNull();
    expect(await post('plan:create', wide)).toEqual({
      status: 400,
      json: {
        ok: false,
        error: { code: 'invalid', message: `the request body holds more than ${MAX_JSON_VALUES} values` },
      },
    });
    const commasInText = JSON.stringify({ workload: ','.repeat(200_000), mode: 'inference' });
    expect(jsonShapeRefusal(Buffer.from(commasInText), MAX_JSON_DEPTH, MAX_JSON_VALUES)).toBeNull();
  });

  it('answers app:info while it refuses a body of 8 million nested arrays', async () => {
    const n = Math.floor((MAX_BODY_BYTES - 16) / 2);
    const deep = post('app:info', arrays(n));
    const infos = await Promise.all([post('app:info', '{}'), post('app:info', '{}')]);
    for (const info of infos) expect(info).toMatchObject({ status: 200, json: { ok: true } });
    expect(await deep).toEqual({ status: 400, json: { ok: false, error: { code: 'invalid', message: DEPTH_LINE } } });
    expect(await post('app:info', '{}')).toMatchObject({ status: 200, json: { ok: true } });
  });
});
