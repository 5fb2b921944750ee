/**
 * A cluster's network as its users state it: one line per machine pair or pattern, the first
 * matching line wins (a two-level network is two lines: the racks, then everything else). Pure.
 *
 *   # A        B        NETWORK
 *   rack1-*    rack1-*  200Gb-IB        # inside rack 1 (leaf switch)
 *   rack2-*    rack2-*  200Gb-IB
 *   node07     node12   21.3GB/s@14us   # measured (nccl-tests between the two)
 *   *          *        100GbE          # between racks (spine)
 *
 * A and B are machine labels with * and ? wildcards, matched in either order; NETWORK is what
 * parseNetwork reads ('25GbE', '200Gb-IB', 'HDR', a number in Gb/s, or a measured '23.5GB/s@12us').
 */
import { UserError } from '../../errors.js';
import { parseNetwork, type NetworkSpec } from './links.js';

export interface LinkRule {
  a: string;
  b: string;
  network: NetworkSpec;
  /** Where it was stated: "links.txt:3". */
  origin: string;
}

const MAX_RULES = 10_000;

/** The rules of a statement; UserError naming the file and line of the first bad line. */
export function parseNetworkStatement(text: string, source: string): LinkRule[] {
  const rules: LinkRule[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    const origin = `${source}:${i + 1}`;
    const m = /^(\S+)\s+(\S+)\s+(.+)$/.exec(line);
    if (!m) throw new UserError(`${origin}: write "MACHINE MACHINE NETWORK" (e.g. "rack1-* rack1-* 200Gb-IB")`);
    let network: NetworkSpec;
    try {
      network = parseNetwork((m[3] as string).trim());
    } catch (e) {
      throw new UserError(`${origin}: ${e instanceof Error ? e.message : String(e)}`);
    }
    rules.push({ a: m[1] as string, b: m[2] as string, network, origin });
    if (rules.length > MAX_RULES)
      throw new UserError(`${source}: more than ${MAX_RULES} lines; use patterns (rack1-*)`);
  }
  if (rules.length === 0) throw new UserError(`${source}: no links stated (lines like "rack1-* rack1-* 200Gb-IB")`);
  return rules;
}
