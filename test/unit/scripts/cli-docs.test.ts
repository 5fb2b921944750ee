/**
 * docs/cli.md is generated from the CLI's own option specs (scripts/write-cli-docs.ts): it must
 * say what `--help` says today, and name every command.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../../src-main/cli/args.js';
import { COMMANDS } from '../../../src-main/cli/commands/index.js';
import { CLI_DOCS_FILE, cliDocs } from '../../../scripts/write-cli-docs.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('docs/cli.md', () => {
  it('is what the generator writes from the commands today (regenerate with npm run docs:cli)', () => {
    const written = readFileSync(path.join(ROOT, CLI_DOCS_FILE), 'utf8');
    expect(written, 'docs/cli.md is stale: run npm run docs:cli').toBe(cliDocs());
  });

  it("holds every command's --help text under its own heading", () => {
    const docs = cliDocs();
    for (const cmd of COMMANDS) {
      expect(docs).toContain(`## pipedejavu ${cmd.name}\n`);
      expect(docs).toContain(helpText(cmd));
    }
  });
});
