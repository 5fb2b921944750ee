/** Conventions a shell user expects: -v, JSON errors under --json, and shell completion. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src-main/cli/commands/index.js';
import { TOOL_VERSION } from '../../../src-main/core/version.js';
import { cli, tempDir } from '../../helpers/cli.js';

describe('-v and -V print the version', () => {
  it.each(['-v', '-V', '--version'])('%s', async (flag) => {
    const r = await cli([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${TOOL_VERSION}\n`);
  });
});

describe('errors under --json are one JSON line on stderr, exit codes as without it', () => {
  it('a usage error: exit 2, code "usage"', async () => {
    const r = await cli(['machines', '--frobnicate', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    const e = JSON.parse(r.stderr) as { error: { message: string; code: string } };
    expect(e.error.code).toBe('usage');
    expect(e.error.message).toMatch(/frobnicate/);
  });

  it('an unknown command with --json anywhere: exit 2, JSON', async () => {
    const r = await cli(['porbe', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'usage', message: 'unknown command "porbe" (did you mean "probe"?); see pipedejavu --help' },
    });
  });

  it('a user error: exit 1, code "user"; without --json the same as before', async () => {
    const missing = path.join(tempDir(), 'nope.json');
    const r = await cli(['import', missing, '--json', '--db', path.join(tempDir(), 'x.db')]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'user', message: `no such file: ${missing}` } });
    const plain = await cli(['import', missing, '--db', path.join(tempDir(), 'x.db')]);
    expect(plain.stderr).toBe(`pipedejavu: error: no such file: ${missing}\n`);
  });
});

function hasShell(name: string): boolean {
  return spawnSync(name, ['-c', 'exit 0']).status === 0;
}

function bashRun(script: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('pipedejavu completion bash|zsh|fish', () => {
  it('bash: the script parses, registers itself, and completes commands, subcommands and flags', async () => {
    const r = await cli(['completion', 'bash']);
    expect(r.code).toBe(0);
    const file = path.join(tempDir(), 'pipedejavu.bash');
    writeFileSync(file, r.stdout);
    expect(bashRun(`bash -n ${JSON.stringify(file)}`).status).toBe(0);
    const complete = (words: string[]): string[] => {
      const out = bashRun(
        `source ${JSON.stringify(file)}; complete -p pipedejavu >/dev/null || exit 9; ` +
          `COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
          `_pipedejavu; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
      expect(out.stderr).toBe('');
      expect(out.status).toBe(0);
      return out.stdout.split('\n').filter(Boolean);
    };
    expect(complete(['pipedejavu', 'pro']).sort()).toEqual(['probe', 'profile']);
    expect(complete(['pipedejavu', 'comp'])).toEqual(['compare', 'completion']);
    expect(complete(['pipedejavu', 'import', '--la'])).toEqual(['--label']);
    expect(complete(['pipedejavu', 'workload', 'a'])).toEqual(['add']);
    expect(complete(['pipedejavu', 'profile', '--js'])).toEqual(['--json']);
    expect(complete(['pipedejavu', 'completion', 'z'])).toEqual(['zsh']);
  });

  it.each(['zsh', 'fish'])('%s: the script names every command', async (shell) => {
    const r = await cli(['completion', shell]);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toContain(c.name);
    expect(r.stdout).toContain('completion');
    expect(r.stdout).toContain(shell === 'fish' ? '-l label' : '--label');
  });

  // Where zsh or fish is installed, its own parser checks the script, and fish completes with it.
  it.skipIf(!hasShell('zsh'))('zsh -n accepts the zsh script', async () => {
    const file = path.join(tempDir(), '_pipedejavu');
    writeFileSync(file, (await cli(['completion', 'zsh'])).stdout);
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0);
  });

  it.skipIf(!hasShell('fish'))('fish parses the fish script and completes commands and flags with it', async () => {
    const file = path.join(tempDir(), 'pipedejavu.fish');
    writeFileSync(file, (await cli(['completion', 'fish'])).stdout);
    expect(spawnSync('fish', ['-n', file]).status).toBe(0);
    const complete = (line: string): string[] =>
      spawnSync('fish', ['--no-config', '-c', `source ${JSON.stringify(file)}; complete -C ${JSON.stringify(line)}`], {
        encoding: 'utf8',
      })
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0] ?? '');
    expect(complete('pipedejavu pro').sort()).toEqual(['probe', 'profile']);
    expect(complete('pipedejavu import --la')).toEqual(['--label']);
  });

  it('an unknown shell is a usage error naming the three', async () => {
    const r = await cli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh or fish/);
  });
});
