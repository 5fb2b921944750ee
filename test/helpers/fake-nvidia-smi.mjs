#!/usr/bin/env node
// A fake nvidia-smi for tests: replays a real capture (test/fixtures/nvidia-smi/*.txt).
//
//   FAKE_SMI_CAPTURE  path of the capture to replay (required)
//   FAKE_SMI_MODE     comma-separated failure modes:
//     hang          never answers
//     hang-topo     `topo -m` never answers (the rest works)
//     garbage       prints junk and exits 0
//     exit2-field   an old driver that does not know compute_cap (exit 2 when asked for it)
//     no-version    an old driver without --version
//     topo-fail     `topo -m` prints the Windows-style "ERROR: Option -m is missing its value"
//     driver-fail   the driver is not loaded (exit 9)
//     no-devices    no GPU (exit 6)
//     lost-gpu      the query also reports a GPU fallen off the bus (exit 15)
//
// A capture is a list of sections, each opened by a banner of `#` lines whose last
// line is `# $ <command>`. A capture without banners (topo-m__*.txt) is a bare
// `topo -m` matrix.
import { readFileSync } from 'node:fs';

const BANNER = /^#{20,}$/;
const INVALID_ARGS = "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.\n";

function readSections(text) {
  const sections = [];
  let inBanner = false;
  let command = null;
  let current = null;
  for (const line of text.split('\n')) {
    if (BANNER.test(line)) {
      if (!inBanner) {
        if (current) sections.push(current);
        current = null;
        command = null;
      } else current = { command, lines: [] };
      inBanner = !inBanner;
    } else if (inBanner) {
      if (line.startsWith('# $ ')) command = line.slice(4).trim();
    } else current?.lines.push(line);
  }
  if (current) sections.push(current);
  return sections;
}

function body(section) {
  const lines = [...section.lines];
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines.join('\n') + '\n';
}

function finish(stdout, code = 0) {
  process.stdout.write(stdout, () => process.exit(code));
}

/** Valid --query-gpu fields: the quoted names of --help-query-gpu plus the CSV header. */
function validFields(sections, header) {
  const fields = new Set(header);
  const help = sections.find((s) => s.command === 'nvidia-smi --help-query-gpu');
  for (const line of help?.lines ?? []) {
    if (line.startsWith('"')) for (const m of line.matchAll(/"([^"]+)"/g)) fields.add(m[1]);
  }
  return fields;
}

function answerQuery(sections, requested, format, modes) {
  const csv = sections.find((s) => s.command?.startsWith('nvidia-smi --query-gpu='));
  if (!csv) return finish(INVALID_ARGS, 2);
  const [headerLine, ...rows] = csv.lines.filter((l) => l.trim() !== '');
  const rawHeader = headerLine.split(', ').map((h) => h.trim());
  const names = rawHeader.map((h) => h.replace(/\s*\[[^\]]*\]$/, ''));
  const units = rawHeader.map((h) => /\[([^\]]*)\]$/.exec(h)?.[1] ?? null);
  const valid = validFields(sections, names);
  if (modes.has('exit2-field')) valid.delete('compute_cap');
  const unknown = requested.find((f) => !valid.has(f));
  if (unknown !== undefined) return finish(`Field "${unknown}" is not a valid field to query.\n\n`, 2);

  const opts = new Set(format.split(','));
  const noUnits = opts.has('nounits');
  const out = [];
  if (!opts.has('noheader')) out.push(requested.map((f) => rawHeader[names.indexOf(f)] ?? f).join(', '));
  for (const row of rows) {
    const cells = row.split(', ').map((c) => c.trim());
    const picked = requested.map((f) => {
      const i = names.indexOf(f);
      if (i < 0) return '[N/A]'; // a valid field this capture did not record
      const value = cells[i] ?? '';
      const unit = units[i];
      return noUnits && unit && value.endsWith(` ${unit}`) ? value.slice(0, -unit.length - 1) : value;
    });
    out.push(picked.join(', '));
  }
  if (modes.has('lost-gpu')) {
    out.push('Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error');
    return finish(out.join('\n') + '\n', 15);
  }
  return finish(out.join('\n') + '\n');
}

function main() {
  const args = process.argv.slice(2);
  const modes = new Set((process.env.FAKE_SMI_MODE ?? '').split(',').filter(Boolean));
  const hang = () => setInterval(() => {}, 1 << 30);

  if (modes.has('hang')) return hang();
  if (modes.has('garbage')) {
    return finish(`\u0000@@ ${Math.random()} ]]]\x1b[31m ¿¿ not csv at all\nlorem;ipsum;dolor\n%%%%%%%%\n`);
  }
  if (modes.has('driver-fail')) {
    return finish(
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. " +
        'Make sure that the latest NVIDIA driver is installed and running.\n\n',
      9,
    );
  }
  if (modes.has('no-devices')) return finish('No devices were found\n', 6);

  const capture = process.env.FAKE_SMI_CAPTURE;
  if (!capture) return finish('FAKE_SMI_CAPTURE is not set\n', 1);
  const text = readFileSync(capture, 'utf8');
  const sections = readSections(text);
  const command = ['nvidia-smi', ...args].join(' ');

  if (args[0] === 'topo' && args[1] === '-m') {
    if (modes.has('hang-topo')) return hang();
    if (modes.has('topo-fail')) return finish('ERROR: Option -m is missing its value\n', 0);
    if (sections.length === 0) return finish(text);
  }
  if (args[0] === '--version' && modes.has('no-version')) return finish(INVALID_ARGS, 2);

  const query = args.find((a) => a.startsWith('--query-gpu='));
  if (query) {
    const format = args.find((a) => a.startsWith('--format='))?.slice('--format='.length) ?? '';
    if (!format.startsWith('csv')) return finish(INVALID_ARGS, 2);
    return answerQuery(sections, query.slice('--query-gpu='.length).split(','), format, modes);
  }
  const section = sections.find((s) => s.command === command);
  return section ? finish(body(section)) : finish(INVALID_ARGS, 2);
}

main();
