/**
 * Parses `nvidia-smi nvlink -s`:
 *
 *   GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-...)
 *   \t Link 0: 26.562 GB/s
 *   \t Link 3: <inactive>
 *
 * A GPU without NVLink gets an empty list. Refusals other than "does not have or
 * support Nvlink" / "all links are inActive" (e.g. MIG mode) become warnings.
 */
import type { Nvlink } from '../../core/domain/hardware.js';
import { cleanText } from './text.js';

/** Replies that just mean "no NVLink here": no warning. */
const NO_NVLINK = [/does not have or support nvlink/i, /all links are inactive/i];
const MAX_WARNINGS = 5;

export interface NvlinkParse {
  /** Links per GPU index, for every GPU the output names. */
  links: Map<number, Nvlink[]>;
  warnings: string[];
}

function parseLink(line: string): Nvlink | null {
  const m = /^\s*Link\s+(\d+)\s*:\s*(.*)$/i.exec(line);
  if (!m?.[1]) return null;
  const rest = (m[2] ?? '').trim();
  const speed = /^([\d.]+)\s*GB\/s/i.exec(rest);
  const speedGBps = speed?.[1] !== undefined && Number.isFinite(Number(speed[1])) ? Number(speed[1]) : null;
  return { link: Number(m[1]), speedGBps, active: speedGBps !== null && !/inactive/i.test(rest) };
}

export function parseNvlinkStatus(text: string): NvlinkParse {
  const links = new Map<number, Nvlink[]>();
  const warnings: string[] = [];
  let gpu: number | null = null;
  for (const raw of cleanText(text).split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const header = /^GPU\s+(\d+)\s*:/.exec(line);
    if (header?.[1]) {
      gpu = Number(header[1]);
      links.set(gpu, []);
      continue;
    }
    const link = parseLink(line);
    if (link && gpu !== null) {
      links.get(gpu)?.push(link);
      continue;
    }
    if (NO_NVLINK.some((re) => re.test(line))) continue;
    const warning = `nvidia-smi nvlink -s${gpu === null ? '' : ` (GPU ${gpu})`}: ${line.slice(0, 200)}`;
    if (warnings.length < MAX_WARNINGS && !warnings.includes(warning)) warnings.push(warning);
  }
  return { links, warnings };
}
