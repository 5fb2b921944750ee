/**
 * Checks a launch line against its engine's argument parser as test/fixtures/engines/ records it
 * (flags, arity, choices, types, config keys and Python keywords taken from the engine's source at
 * a named version): split the shell line as sh would (our shellQuote output; environment
 * assignments first), find the entry point, and check every flag exists with the right number of
 * values, an allowed choice and the right type. A config file is checked key by key, a Python
 * script call by call. Each function returns the problems found, [] when none.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineName } from '../../src-main/core/engines/engine-names.js';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/engines');

/**
 * A flag's value: 'switch' (none), 'int' / 'float' / 'str' / 'json' / 'bool' (one), 'str?' (an
 * optional one), 'str+' / 'int+' (one or more), 'int,' (one word, comma-separated), 'str str' (two),
 * or the list of values it accepts.
 */
export type FlagSpec = string | string[];

export interface KeySpec {
  /** int, float, bool, str, list, dict, or any (the tool takes the value as it is). */
  type: string;
  choices?: string[];
  pattern?: string;
}

/** The training launchers and config readers the training exports target, each with a fixture. */
export const TRAINING_TOOLS = ['torchrun', 'megatron-lm', 'deepspeed', 'accelerate'] as const;
export type TrainingTool = (typeof TRAINING_TOOLS)[number];

export interface EngineFixture {
  engine: EngineName | TrainingTool;
  tool: string;
  entry: string[];
  positionals: number;
  version: string;
  source: { repo: string; commit: string | null; paths: string[] };
  about: string;
  flags?: Record<string, FlagSpec>;
  keys?: Record<string, KeySpec>;
  calls?: Record<string, { positionals: number; kwargs: string[]; varkw?: boolean; values?: Record<string, string[]> }>;
  at?: Record<string, string>;
}

export const FIXTURE_FILES: Record<EngineName, string> = {
  vllm: 'vllm.json',
  sglang: 'sglang.json',
  'tensorrt-llm': 'tensorrt-llm.json',
  'llama.cpp': 'llama-cpp.json',
  transformers: 'transformers.json',
  tgi: 'tgi.json',
  exllamav2: 'exllamav2-tabbyapi.json',
};

/** A serving engine's fixture by its file, a training tool's by its name (torchrun.json, ...). */
export function loadFixture(name: EngineName | TrainingTool): EngineFixture {
  const file = (TRAINING_TOOLS as readonly string[]).includes(name)
    ? `${name}.json`
    : FIXTURE_FILES[name as EngineName];
  return JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as EngineFixture;
}

/** The words of a POSIX shell line: bare words with backslash escapes, '...' and "..." quoting. */
export function splitShell(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated ' in ${JSON.stringify(line)}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let s = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && /["$`\\\n]/.test(line[i + 1] ?? '')) i++;
        s += line[i];
      }
      if (i >= line.length) throw new Error(`unterminated " in ${JSON.stringify(line)}`);
      word = (word ?? '') + s;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/[;&|<>()$`]/.test(c)) {
      throw new Error(`unquoted shell metacharacter ${JSON.stringify(c)} in ${JSON.stringify(line)}`);
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

const isFlag = (w: string): boolean => /^-/.test(w) && !/^-\d/.test(w) && w !== '-';

/** Why `value` is not of `spec` (one value), or null. */
function valueProblem(spec: FlagSpec, value: string): string | null {
  if (Array.isArray(spec))
    return spec.includes(value) ? null : `${JSON.stringify(value)} is not one of ${spec.join(', ')}`;
  const type = spec.replace(/[+?,]$/, '');
  if (spec.endsWith(',')) {
    const bad = value.split(',').find((v) => valueProblem(type, v) !== null);
    return bad === undefined ? null : `${JSON.stringify(bad)} in ${JSON.stringify(value)} is no ${type}`;
  }
  switch (type) {
    case 'int':
      return /^-?\d+$/.test(value) ? null : `${JSON.stringify(value)} is no int`;
    case 'float':
      return /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value) ? null : `${JSON.stringify(value)} is no float`;
    case 'bool':
      return /^(true|false)$/i.test(value) ? null : `${JSON.stringify(value)} is no bool`;
    case 'json':
      try {
        JSON.parse(value);
        return null;
      } catch {
        return `${JSON.stringify(value)} is no JSON`;
      }
    default:
      return null;
  }
}

/** The fixture's flags by every name they answer to. */
function flagTable(fixture: EngineFixture): Map<string, FlagSpec> {
  const table = new Map<string, FlagSpec>();
  for (const [names, spec] of Object.entries(fixture.flags ?? {})) for (const n of names.split('|')) table.set(n, spec);
  return table;
}

/** The environment, the entry point and the arguments of a launch line. */
export function parseLaunch(
  command: string,
  fixture: EngineFixture,
): { env: Record<string, string>; args: string[]; problems: string[] } {
  const words = splitShell(command);
  const env: Record<string, string> = {};
  while (words[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) {
    const w = words.shift() as string;
    env[w.slice(0, w.indexOf('='))] = w.slice(w.indexOf('=') + 1);
  }
  const entry = words.slice(0, fixture.entry.length);
  const python = (w: string | undefined): boolean => w === 'python' || w === 'python3';
  const matches =
    entry.length === fixture.entry.length &&
    entry.every((w, i) => w === fixture.entry[i] || (python(w) && python(fixture.entry[i])));
  const problems = matches
    ? []
    : [`runs ${JSON.stringify(entry.join(' '))}, not ${fixture.tool} (${fixture.entry.join(' ')})`];
  return { env, args: words.slice(fixture.entry.length), problems };
}

/** Every problem of a launch line against the engine's parser: [] when its parser takes it. */
export function checkCommand(command: string, fixture: EngineFixture): string[] {
  let parsed;
  try {
    parsed = parseLaunch(command, fixture);
  } catch (e) {
    return [(e as Error).message];
  }
  const { args, problems } = parsed;
  const table = flagTable(fixture);
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (!isFlag(word)) {
      positionals++;
      continue;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const spec = table.get(name);
    if (spec === undefined) {
      problems.push(`${name}: no such flag in ${fixture.tool} ${fixture.version}`);
      continue;
    }
    const values: string[] = eq > 0 ? [word.slice(eq + 1)] : [];
    const need = (n: number): void => {
      while (values.length < n && i + 1 < args.length && !isFlag(args[i + 1] as string))
        values.push(args[++i] as string);
    };
    if (spec === 'switch') {
      if (values.length > 0) problems.push(`${name} takes no value`);
      continue;
    }
    if (typeof spec === 'string' && spec.includes(' ')) {
      need(2);
      if (values.length !== 2) problems.push(`${name} takes two values`);
      spec.split(' ').forEach((t, k) => {
        const p = values[k] === undefined ? null : valueProblem(t, values[k] as string);
        if (p) problems.push(`${name}: ${p}`);
      });
      continue;
    }
    if (typeof spec === 'string' && spec.endsWith('+')) {
      need(Infinity);
      if (values.length === 0) problems.push(`${name} takes one or more values`);
    } else if (typeof spec === 'string' && spec.endsWith('?')) need(1);
    else {
      need(1);
      if (values.length !== 1) problems.push(`${name} takes a value`);
    }
    for (const v of values) {
      const p = valueProblem(spec, v);
      if (p) problems.push(`${name}: ${p}`);
    }
  }
  if (positionals !== fixture.positionals)
    problems.push(`${positionals} positional argument(s); ${fixture.tool} takes ${fixture.positionals}`);
  return problems;
}

/** Every problem of a config file (parsed) against the engine's keys: unknown keys, wrong types or values. */
export function checkConfig(config: unknown, fixture: EngineFixture): string[] {
  const problems: string[] = [];
  const keys = fixture.keys ?? {};
  // Every dotted prefix of a key is a section to descend into (ds_config's zero_optimization.offload_optimizer).
  const sections = new Set(
    Object.keys(keys).flatMap((k) =>
      k
        .split('.')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
    ),
  );
  const visit = (value: unknown, at: string): void => {
    const spec = keys[at];
    if (
      (spec === undefined || spec.type === 'dict') &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      (at === '' || sections.has(at))
    ) {
      for (const [k, v] of Object.entries(value)) visit(v, at ? `${at}.${k}` : k);
      return;
    }
    if (spec === undefined) {
      problems.push(`${at}: no such key in ${fixture.tool} ${fixture.version}`);
      return;
    }
    const ok =
      value === null ||
      spec.type === 'any' ||
      (spec.type === 'int' && Number.isInteger(value)) ||
      (spec.type === 'float' && typeof value === 'number') ||
      (spec.type === 'bool' && typeof value === 'boolean') ||
      (spec.type === 'list' && Array.isArray(value)) ||
      (spec.type === 'dict' && typeof value === 'object') ||
      (spec.type === 'str' && typeof value === 'string');
    if (!ok) problems.push(`${at}: ${JSON.stringify(value)} is no ${spec.type}`);
    if (
      spec.choices &&
      typeof value === 'string' &&
      !spec.choices.includes(value) &&
      !(spec.pattern && new RegExp(spec.pattern).test(value))
    )
      problems.push(`${at}: ${JSON.stringify(value)} is not one of ${spec.choices.join(', ')}`);
  };
  visit(config, '');
  return problems;
}

/** The text between the parenthesis at `open` and its match (strings and nesting respected). */
function callArgs(text: string, open: number): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  throw new Error(`unbalanced call at ${open}`);
}

/** The top-level, comma-separated arguments of a call. */
function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i] as string;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(args.slice(start).trim());
  return out.filter((a) => a !== '');
}

/**
 * Every problem of a Python script's calls against the fixture's signatures: each call the fixture
 * names, wherever the script makes it, with no keyword the callee does not take, at most its
 * positional arguments, and a listed value where the fixture lists them. Also [] calls = a problem.
 */
export function checkPythonCalls(script: string, fixture: EngineFixture): string[] {
  const problems: string[] = [];
  let found = 0;
  for (const [name, sig] of Object.entries(fixture.calls ?? {})) {
    const re = new RegExp(`(?<![\\w.])${name.replace(/\./g, '\\.')}\\(`, 'g');
    for (const m of script.matchAll(re)) {
      found++;
      const args = splitArgs(callArgs(script, (m.index ?? 0) + m[0].length - 1));
      let positionals = 0;
      for (const a of args) {
        if (a.startsWith('**')) {
          if (!sig.varkw) problems.push(`${name}: takes no **kwargs`);
          continue;
        }
        const kw = /^([A-Za-z_]\w*)\s*=(?!=)\s*([\s\S]*)$/.exec(a);
        if (!kw) {
          positionals++;
          continue;
        }
        const [, key, value] = kw as unknown as [string, string, string];
        if (!sig.kwargs.includes(key)) problems.push(`${name}: no keyword ${key} in ${fixture.version}`);
        const allowed = sig.values?.[key];
        if (
          allowed &&
          !allowed.includes(value.replace(/^"(.*)"$/, '$1')) &&
          !(allowed.includes('dict') && value.startsWith('{'))
        )
          problems.push(`${name}: ${key}=${value} is not one of ${allowed.join(', ')}`);
      }
      if (positionals > sig.positionals)
        problems.push(`${name}: ${positionals} positional arguments, takes ${sig.positionals}`);
    }
  }
  if (found === 0) problems.push(`no call the fixture names (${Object.keys(fixture.calls ?? {}).join(', ')})`);
  return problems;
}
