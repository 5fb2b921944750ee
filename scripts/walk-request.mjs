// Follows a request type through src-main as data: which functions receive the whole request
// ("rooms"), and which calls hand it back up the import graph ("climbs": the callee's file imports the
// caller's, directly or not, so the request returns to a room it came through).
//   node scripts/walk-request.mjs [TYPE ...]   (default: PlanRequest ResolvedPlanRequest)
// Issue 58 measured the plan request this way: a staged request enters few rooms and never climbs.
import path from 'node:path';
import ts from 'typescript';

const types = new Set(process.argv.slice(2).length ? process.argv.slice(2) : ['PlanRequest', 'ResolvedPlanRequest']);
const root = process.cwd();
const config = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const ours = program.getSourceFiles().filter((f) => f.fileName.includes('/src-main/'));
const rel = (f) => path.relative(root, f);

/** The request types by their declarations (an interface, or an alias such as z.output<typeof SCHEMA>). */
const targets = [];
for (const f of ours) {
  for (const s of f.statements) {
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && types.has(s.name.text)) {
      targets.push({ name: s.name.text, type: checker.getTypeAtLocation(s.name) });
    }
  }
}

/** The request type a node's type is (the very type, or one of its name), or undefined. */
function requestType(node) {
  const t = checker.getTypeAtLocation(node);
  if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  const name = t.aliasSymbol?.name ?? t.getSymbol()?.name;
  const hit = targets.find((r) => r.type === t || r.name === name);
  return hit?.name;
}

const imports = new Map();
for (const f of ours) {
  const out = new Set();
  for (const s of f.statements) {
    if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier) {
      const r = ts.resolveModuleName(s.moduleSpecifier.text, f.fileName, config.options, ts.sys).resolvedModule;
      if (r && !r.isExternalLibraryImport) out.add(path.resolve(r.resolvedFileName));
    }
  }
  imports.set(path.resolve(f.fileName), out);
}
function reaches(from, to, seen = new Set()) {
  if (from === to) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  for (const n of imports.get(from) ?? []) if (reaches(n, to, seen)) return true;
  return false;
}

const rooms = [];
const climbs = [];
for (const f of ours) {
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.parameters?.some((p) => requestType(p.name))) {
      const name = node.name?.getText(f) ?? '(anonymous)';
      const line = f.getLineAndCharacterOfPosition(node.getStart(f)).line + 1;
      rooms.push(`${rel(f.fileName)}:${line} ${name}`);
    }
    if (ts.isCallExpression(node) && node.arguments.some((a) => requestType(a))) {
      const decl = checker.getResolvedSignature(node)?.declaration;
      const target = decl?.getSourceFile?.().fileName;
      if (
        target &&
        path.resolve(target) !== path.resolve(f.fileName) &&
        reaches(path.resolve(target), path.resolve(f.fileName))
      ) {
        const line = f.getLineAndCharacterOfPosition(node.getStart(f)).line + 1;
        climbs.push(`${rel(f.fileName)}:${line} -> ${rel(target)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(f);
}
console.log(`request types: ${[...types].join(', ')}`);
console.log(
  `rooms (functions given the whole request): ${rooms.length} in ${new Set(rooms.map((r) => r.split(':')[0])).size} files`,
);
for (const r of rooms) console.log(`  ${r}`);
console.log(`climbs (the request handed to a file that imports the caller's): ${climbs.length}`);
for (const c of climbs) console.log(`  ${c}`);
