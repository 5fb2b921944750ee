#!/usr/bin/env node
// Unused-export check (part of `npm run lint`), on the TypeScript compiler API: no extra dependency.
//
// What it checks: every export of src-main/**/*.ts and src-renderer/src/**/*.ts (the "export sites").
// Who counts as a user: any import (static, dynamic `await import()`, `import('…').X` types, re-export
// chains and `export *` barrels) from
//   - src-main and src-renderer/src (their .ts files and the <script> blocks of .svelte components),
//   - the entry points and tools around them: bin/, scripts/, bench/, vite/vitest configs,
//   - the tests (test/**), which count only as described below.
//
// The rules, and how exports used ONLY by tests are treated:
//   1. An export nobody imports fails: drop the `export` keyword if its module uses it, else delete it.
//      Exception: an interface or type alias named in its own module stays exportable; it spells out
//      the signature of the module's exported functions (options, results) for a later caller.
//   2. An export imported only by tests and not referenced in its own module fails too: that is dead
//      code kept alive by its test. Delete the code and its test, or list it in the allowlist with a
//      reason (a unit kept on purpose for a later caller is not a reason; a tested public helper may be).
//      A re-export (barrel) that only tests import fails: let the test import the defining module.
//   3. An export imported only by tests and used inside its module passes: it exists so a test can
//      reach an internal unit and assert its behaviour. `--test-only` lists these for review; keep one
//      only where its test asserts real behaviour of that unit.
//
// The allowlist (scripts/unused-exports-allowlist.txt): one `path:name  reason` a line, `#` comments.
// An entry that no longer matches a finding fails the check, so the list stays short and true.
//
// Usage: node scripts/check-unused-exports.mjs [--test-only] [--root <repository>]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const rootArg = process.argv.indexOf('--root');
const ROOT =
  rootArg > 0
    ? path.resolve(process.argv[rootArg + 1] ?? '.')
    : path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const ALLOWLIST = 'scripts/unused-exports-allowlist.txt';
/** Folders whose exports are checked. */
const SITE_DIRS = ['src-main', 'src-renderer/src'];
/** Folders and files that only use exports (entry points, tools, tests). */
const USER_DIRS = ['bin', 'scripts', 'bench', 'test'];
const USER_FILES = ['vitest.config.ts', 'vitest.e2e.config.ts', 'src-renderer/vite.config.ts'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.tmp', 'fixtures']);

const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');
const isTest = (file) => rel(file).startsWith('test/');

/** Every file under `dir` (relative to the root) whose name ends with one of `exts`. */
function walk(dir, exts) {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) return [];
  const out = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...walk(child, exts));
    } else if (exts.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.d.ts')) {
      out.push(path.join(ROOT, child));
    }
  }
  return out;
}

function compilerOptions() {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  return { ...options, allowJs: true, checkJs: false, noEmit: true };
}

/** The <script> blocks of a .svelte component, as one TypeScript source file. */
function svelteScript(file) {
  const text = readFileSync(file, 'utf8');
  const blocks = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  return ts.createSourceFile(file, blocks.join('\n'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function main() {
  const testOnlyListing = process.argv.includes('--test-only');
  const siteFiles = SITE_DIRS.flatMap((d) => walk(d, ['.ts']));
  const userFiles = [
    ...USER_DIRS.flatMap((d) => walk(d, ['.ts', '.mjs', '.js'])),
    ...USER_FILES.map((f) => path.join(ROOT, f)).filter(existsSync),
  ];
  const svelteFiles = walk('src-renderer/src', ['.svelte']);
  const options = compilerOptions();
  const program = ts.createProgram([...siteFiles, ...userFiles], options);
  const checker = program.getTypeChecker();

  /** symbol -> set of user files (absolute) */
  const usedBy = new Map();
  const exportsCache = new Map();
  const exportsOf = (moduleSymbol) => {
    if (!exportsCache.has(moduleSymbol)) {
      exportsCache.set(moduleSymbol, new Map(checker.getExportsOfModule(moduleSymbol).map((s) => [s.name, s])));
    }
    return exportsCache.get(moduleSymbol);
  };
  const markSymbol = (symbol, user) => {
    for (let s = symbol, depth = 0; s && depth < 20; depth += 1) {
      if (!usedBy.has(s)) usedBy.set(s, new Set());
      usedBy.get(s).add(user);
      if (!(s.flags & ts.SymbolFlags.Alias)) break;
      s = checker.getImmediateAliasedSymbol(s);
    }
  };
  const markName = (moduleSymbol, name, user) => {
    const symbol = moduleSymbol && exportsOf(moduleSymbol).get(name);
    if (symbol) markSymbol(symbol, user);
  };
  const markAll = (moduleSymbol, user) => {
    if (moduleSymbol) for (const s of exportsOf(moduleSymbol).values()) markSymbol(s, user);
  };

  /** Names a dynamic `import()` call takes: destructured, or `(await import(x)).name`; null = all. */
  const dynamicImportNames = (call) => {
    let node = call.parent;
    if (ts.isAwaitExpression(node)) node = node.parent;
    while (ts.isParenthesizedExpression(node)) node = node.parent;
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name)) {
      const names = node.name.elements.map((e) => (e.propertyName ?? e.name).getText());
      return names.every((n) => /^[\w$]+$/.test(n)) ? names : null;
    }
    if (ts.isPropertyAccessExpression(node)) return [node.name.text];
    return null;
  };

  /** Records the imports of one file, resolving specifiers with `moduleOf`. */
  const collectUses = (sourceFile, user, moduleOf) => {
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && node.importClause) {
        const mod = moduleOf(node.moduleSpecifier);
        const clause = node.importClause;
        if (clause.name) markName(mod, 'default', user);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) markAll(mod, user);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const el of bindings.elements) markName(mod, (el.propertyName ?? el.name).text, user);
        }
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [arg] = node.arguments;
        if (arg && ts.isStringLiteralLike(arg)) {
          const mod = moduleOf(arg);
          const names = dynamicImportNames(node);
          if (names) for (const n of names) markName(mod, n, user);
          else markAll(mod, user);
        }
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const mod = moduleOf(node.argument.literal);
        if (node.qualifier) {
          let first = node.qualifier;
          while (ts.isQualifiedName(first)) first = first.left;
          markName(mod, first.text, user);
        } else markAll(mod, user);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  };

  const programFiles = new Set([...siteFiles, ...userFiles].map((f) => path.resolve(f)));
  for (const sf of program.getSourceFiles()) {
    if (!programFiles.has(path.resolve(sf.fileName))) continue;
    collectUses(sf, path.resolve(sf.fileName), (spec) => checker.getSymbolAtLocation(spec));
  }
  for (const file of svelteFiles) {
    const moduleOf = (spec) => {
      const resolved = ts.resolveModuleName(spec.text, file, options, ts.sys).resolvedModule;
      const target = resolved && program.getSourceFile(resolved.resolvedFileName);
      return target && checker.getSymbolAtLocation(target);
    };
    collectUses(svelteScript(file), file, moduleOf);
  }

  /** Whether `sourceFile` names `symbol` anywhere but in its own declaration and export lists. */
  const usedInOwnModule = (sourceFile, symbol) => {
    let found = false;
    const matches = (s) =>
      s && (s === symbol || s.exportSymbol === symbol || checker.getExportSymbolOfSymbol(s) === symbol);
    const visit = (node) => {
      if (found) return;
      if (ts.isIdentifier(node) && node.text === symbol.name) {
        const parent = node.parent;
        const isDeclarationName = parent && 'name' in parent && parent.name === node && ts.isDeclaration(parent);
        const isExportSpecifier = parent && ts.isExportSpecifier(parent);
        if (!isDeclarationName && !isExportSpecifier && matches(checker.getSymbolAtLocation(node))) found = true;
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return found;
  };

  const findings = [];
  const testOnly = [];
  for (const file of siteFiles) {
    const sf = program.getSourceFile(file);
    const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) continue;
    for (const symbol of exportsOf(moduleSymbol).values()) {
      if (!(symbol.declarations ?? []).some((d) => d.getSourceFile() === sf)) continue; // an `export *`
      const users = [...(usedBy.get(symbol) ?? [])];
      const key = `${rel(file)}:${symbol.name}`;
      if (users.some((u) => !isTest(u))) continue;
      const reexport = (symbol.flags & ts.SymbolFlags.Alias) !== 0;
      const inModule = !reexport && usedInOwnModule(sf, symbol);
      const typeOnly = !(symbol.flags & ts.SymbolFlags.Value) && !reexport;
      const testUsers = users.map(rel).join(', ');
      if (users.length === 0 && typeOnly && inModule) continue;
      if (users.length === 0) {
        const fix = reexport ? 'drop the re-export' : inModule ? 'un-export it' : 'delete it';
        findings.push({ key, why: `${inModule ? 'not imported anywhere' : 'not used anywhere'}: ${fix}` });
      } else if (reexport) {
        findings.push({ key, why: `re-export only tests use (${testUsers}): import the defining module there` });
      } else if (!inModule) {
        findings.push({ key, why: `only tests use it (${testUsers}): delete it with its test` });
      } else {
        testOnly.push({ key, why: `used in its module; imported only by ${testUsers}` });
      }
    }
  }

  const allowed = new Map(
    readFileSync(path.join(ROOT, ALLOWLIST), 'utf8')
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean)
      .map((line) => {
        const [key, ...reason] = line.split(/\s+/);
        return [key, reason.join(' ')];
      }),
  );
  const failures = findings.filter((f) => !allowed.has(f.key));
  const foundKeys = new Set(findings.map((f) => f.key));
  const stale = [...allowed.keys()].filter((k) => !foundKeys.has(k));
  const unreasoned = [...allowed].filter(([k, r]) => foundKeys.has(k) && !r).map(([k]) => k);

  if (testOnlyListing) {
    console.log(`Exports used only by tests, to reach an internal unit (${testOnly.length}):`);
    for (const t of testOnly) console.log(`  ${t.key}  ${t.why}`);
  }
  for (const f of failures) console.error(`${f.key}  ${f.why}`);
  for (const k of stale) console.error(`${ALLOWLIST}: ${k} matches no finding any more: remove the entry`);
  for (const k of unreasoned) console.error(`${ALLOWLIST}: ${k} needs a reason`);
  const bad = failures.length + stale.length + unreasoned.length;
  if (bad > 0) {
    console.error(`\ncheck-unused-exports: ${bad} problem(s) (policy: head of scripts/check-unused-exports.mjs)`);
    process.exit(1);
  }
  console.log(
    `check-unused-exports: ${siteFiles.length} modules clean (${allowed.size} allowlisted, ${testOnly.length} test-only internals)`,
  );
}

main();
