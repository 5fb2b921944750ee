/**
 * The reference oracles some tests hold our code to: Debian's /usr/bin/python3 and the Debian
 * packages it imports (a python3 elsewhere on PATH cannot see them). .ci/run installs them.
 *
 * One rule for every test that needs one: where the oracle is missing the test is skipped, except
 * under CI (CI set in the environment), where a missing oracle is the machine's fault and must not
 * pass unnoticed: the file gets one failing test that names the Debian package to install, and the
 * tests that need the oracle are skipped (they could only fail for the same reason).
 *
 *   const onnx = needOracle('onnx');          // where the tests are declared, not inside one
 *   it.skipIf(!onnx)('passes the checker', () => { ... });
 */
import { spawnSync } from 'node:child_process';
import { it } from 'vitest';

/** The Python every oracle runs in. */
export const ORACLE_PYTHON = '/usr/bin/python3';

const ORACLES = {
  /** The interpreter alone (byte-compiling, ast, json). */
  python: { imports: 'sys', debian: 'python3' },
  onnx: { imports: 'onnx', debian: 'python3-onnx' },
  numpy: { imports: 'numpy', debian: 'python3-numpy' },
  sklearn: { imports: 'sklearn, numpy', debian: 'python3-sklearn' },
  torch: { imports: 'torch', debian: 'python3-torch' },
  yaml: { imports: 'yaml', debian: 'python3-yaml' },
} as const;

type OracleName = keyof typeof ORACLES;

const missingCache = new Map<OracleName, string | null>();
const reported = new Set<OracleName>();

/** Whether CI is set (as CI systems set it: CI=true, CI=1), not CI=false or CI=0. */
function onCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** Why the oracle cannot run here, naming the Debian package that brings it; null when it can. */
export function oracleMissing(name: OracleName): string | null {
  const cached = missingCache.get(name);
  if (cached !== undefined) return cached;
  const { imports, debian } = ORACLES[name];
  const r = spawnSync(ORACLE_PYTHON, ['-c', `import ${imports}`], { encoding: 'utf8', timeout: 60_000 });
  const why = r.error
    ? `${ORACLE_PYTHON} cannot run (${r.error.message})`
    : r.status !== 0
      ? `${ORACLE_PYTHON} cannot import ${imports} (${r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`})`
      : null;
  const missing = why === null ? null : `the ${name} oracle is missing: ${why}; apt-get install ${debian}`;
  missingCache.set(name, missing);
  return missing;
}

/**
 * Whether the oracle is here, for `it.skipIf(!needOracle(name))` and the like. Call it where tests
 * are declared: under CI a missing oracle adds, once per file, a test there that fails saying so.
 */
export function needOracle(name: OracleName): boolean {
  const missing = oracleMissing(name);
  if (missing === null) return true;
  if (onCi() && !reported.has(name)) {
    reported.add(name);
    it(`has the ${name} oracle CI installs (.ci/run)`, () => {
      throw new Error(`${missing} (CI is set: a missing oracle fails instead of skipping its tests)`);
    });
  }
  return false;
}
