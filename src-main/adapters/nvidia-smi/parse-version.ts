/**
 * Driver and CUDA versions, from `nvidia-smi --version` or, on drivers too old for
 * that switch, from the header of plain `nvidia-smi`. Windows drivers from R610 print
 * "DRIVER version : Deprecated, see "KMD version" instead" and a "KMD version" line.
 */
import { cleanText } from './text.js';

export interface Versions {
  driverVersion: string | null;
  cudaVersion: string | null;
}

const VERSION = /^\d+(?:\.\d+)+$/;
const asVersion = (v: string | undefined): string | null => {
  const t = v?.trim();
  return t && VERSION.test(t) ? t : null;
};

/** `nvidia-smi --version`: "DRIVER version : 590.48.01", "CUDA Version : 13.1". */
export function parseVersionOutput(text: string): Versions {
  const values = new Map<string, string>();
  for (const line of cleanText(text).split('\n')) {
    const m = /^\s*([A-Za-z][\w -]*?)\s*:\s*(.*?)\s*$/.exec(line);
    if (m?.[1] && m[2] !== undefined) values.set(m[1].toLowerCase(), m[2]);
  }
  const first = (...keys: string[]): string | null =>
    keys.map((k) => asVersion(values.get(k))).find((v) => v !== null) ?? null;
  return {
    driverVersion: first('driver version', 'kmd version'),
    cudaVersion: first('cuda version', 'cuda umd version'),
  };
}

/** Plain `nvidia-smi`: "| NVIDIA-SMI 535.x   Driver Version: 535.x   CUDA Version: 12.2 |". */
export function parseSummaryHeader(text: string): Versions {
  const clean = cleanText(text);
  const find = (re: RegExp): string | null => asVersion(re.exec(clean)?.[1]);
  return {
    driverVersion: find(/Driver Version:\s*(\S+)/i) ?? find(/KMD Version:\s*(\S+)/i),
    cudaVersion: find(/CUDA (?:UMD )?Version:\s*(\S+)/i),
  };
}
