import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TopologySchema, type Topology } from '../../../../src-main/core/domain/hardware.js';
import { parseTopoCell, parseTopology } from '../../../../src-main/adapters/nvidia-smi/parse-topo.js';
import { CAPTURES, captureSection, fixturePath } from '../../../helpers/fake-nvidia-smi.js';

function topologyOf(text: string): Topology {
  const { topology, warnings } = parseTopology(text);
  expect(warnings).toEqual([]);
  if (!topology) throw new Error('no topology');
  TopologySchema.parse(topology);
  return topology;
}

const cell = (t: Topology, a: string, b: string): string | undefined =>
  t.matrix[t.labels.indexOf(a)]?.[t.labels.indexOf(b)]?.raw;
const kind = (t: Topology, a: string, b: string): string | undefined =>
  t.matrix[t.labels.indexOf(a)]?.[t.labels.indexOf(b)]?.kind;

describe('parseTopoCell', () => {
  it('reads every documented kind', () => {
    expect(parseTopoCell(' X ')).toEqual({ kind: 'X', nvlinks: null, raw: 'X' });
    expect(parseTopoCell('NV18')).toEqual({ kind: 'NV', nvlinks: 18, raw: 'NV18' });
    expect(parseTopoCell('NV1')).toEqual({ kind: 'NV', nvlinks: 1, raw: 'NV1' });
    for (const k of ['PIX', 'PXB', 'PHB', 'NODE', 'SYS']) expect(parseTopoCell(k).kind).toBe(k);
  });

  it('keeps unknown kinds as UNKNOWN with the raw text', () => {
    expect(parseTopoCell('C2C')).toEqual({ kind: 'UNKNOWN', nvlinks: null, raw: 'C2C' });
    expect(parseTopoCell('NV?')).toEqual({ kind: 'UNKNOWN', nvlinks: null, raw: 'NV?' });
    expect(parseTopoCell('')).toEqual({ kind: 'UNKNOWN', nvlinks: null, raw: '' });
  });

  it('maps the SOC of old drivers to SYS, keeping the raw text', () => {
    expect(parseTopoCell('SOC')).toEqual({ kind: 'SYS', nvlinks: null, raw: 'SOC' });
  });
});

describe('parseTopology: 8x RTX 4090 (public bug report)', () => {
  const t = topologyOf(readFileSync(fixturePath(CAPTURES.topo8x4090), 'utf8'));

  it('has 8 GPUs and 2 NICs', () => {
    expect(t.labels).toEqual(['GPU0', 'GPU1', 'GPU2', 'GPU3', 'GPU4', 'GPU5', 'GPU6', 'GPU7', 'NIC0', 'NIC1']);
    expect(t.matrix).toHaveLength(10);
    for (const row of t.matrix) expect(row).toHaveLength(10);
  });

  it('reads every GPU pair as SYS and the diagonal as X', () => {
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) expect(kind(t, `GPU${i}`, `GPU${j}`)).toBe(i === j ? 'X' : 'SYS');
    }
    expect(kind(t, 'NIC0', 'NIC0')).toBe('X');
  });

  it('reads the NIC links', () => {
    expect(kind(t, 'GPU6', 'NIC0')).toBe('PHB');
    expect(kind(t, 'NIC0', 'GPU6')).toBe('PHB');
    expect(kind(t, 'GPU6', 'NIC1')).toBe('PHB');
    expect(kind(t, 'GPU0', 'NIC0')).toBe('SYS');
    expect(kind(t, 'NIC0', 'NIC1')).toBe('PIX');
  });

  it('aligns the affinity columns despite the extra empty cell', () => {
    expect(t.cpuAffinity.slice(0, 4)).toEqual(Array(4).fill('0-55,112-167'));
    expect(t.cpuAffinity.slice(4, 8)).toEqual(Array(4).fill('56-111,168-223'));
    expect(t.numaAffinity.slice(0, 8)).toEqual(['0', '0', '0', '0', '1', '1', '1', '1']);
    expect(t.gpuNumaId.slice(0, 8)).toEqual(Array(8).fill(null)); // "N/A"
    expect(t.cpuAffinity.slice(8)).toEqual([null, null]); // NIC rows carry no affinity
    expect(t.numaAffinity.slice(8)).toEqual([null, null]);
    expect(t.nicNames).toEqual({}); // the post had no legend
  });
});

describe('parseTopology: single-GPU captures', () => {
  it('reads the H100 matrix with its ANSI-underlined header', () => {
    const t = topologyOf(captureSection(CAPTURES.h100, 'nvidia-smi topo -m'));
    expect(t.labels).toEqual(['GPU0']);
    expect(t.matrix).toEqual([[{ kind: 'X', nvlinks: null, raw: 'X' }]]);
    expect(t.cpuAffinity).toEqual(['0-19']);
    expect(t.numaAffinity).toEqual(['0']);
    expect(t.gpuNumaId).toEqual([null]);
  });

  it('reads the RTX 4080 SUPER and 2080 SUPER affinities', () => {
    expect(topologyOf(captureSection(CAPTURES.rtx4080Super, 'nvidia-smi topo -m')).cpuAffinity).toEqual(['0-15']);
    expect(topologyOf(captureSection(CAPTURES.rtx2080Super, 'nvidia-smi topo -m')).cpuAffinity).toEqual(['0-23']);
  });

  it('reads the Windows matrix, whose affinity cells are all empty', () => {
    const t = topologyOf(captureSection(CAPTURES.windows2080Super, 'nvidia-smi topo -m'));
    expect(t.labels).toEqual(['GPU0']);
    expect(t.cpuAffinity).toEqual([null]);
    expect(t.numaAffinity).toEqual([null]);
    expect(t.gpuNumaId).toEqual([null]);
  });
});

describe('parseTopology: NVLink machines', () => {
  it('reads a DGX-style NV18 matrix with a NIC legend (hand-written fixture)', () => {
    const t = topologyOf(readFileSync(fixturePath(CAPTURES.topoDgxStyle), 'utf8'));
    expect(t.labels).toHaveLength(12);
    expect(t.matrix[0]?.[1]).toEqual({ kind: 'NV', nvlinks: 18, raw: 'NV18' });
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) if (i !== j) expect(cell(t, `GPU${i}`, `GPU${j}`)).toBe('NV18');
    }
    expect(kind(t, 'GPU0', 'NIC0')).toBe('PXB');
    expect(kind(t, 'GPU2', 'NIC0')).toBe('NODE');
    expect(kind(t, 'GPU4', 'NIC0')).toBe('SYS');
    expect(t.nicNames).toEqual({ NIC0: 'mlx5_0', NIC1: 'mlx5_3', NIC2: 'mlx5_4', NIC3: 'mlx5_5' });
    expect(t.cpuAffinity[0]).toBe('0-55,112-167');
    expect(t.cpuAffinity[7]).toBe('56-111,168-223');
    expect(t.numaAffinity[7]).toBe('1');
    expect(t.cpuAffinity[8]).toBeNull();
  });

  it('reads a DGX-1-style hybrid mesh with mixed NV1/NV2, GPU NUMA IDs and a trailing tab', () => {
    const text = [
      '\t\x1b[4mGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m',
      'GPU0\t X \tNV1\tNV1\tNV2\tNODE\t0-19,40-59\t0\t\t2',
      'GPU1\tNV1\t X \tNV2\tNV1\tNODE\t0-19,40-59\t0\t\t3',
      'GPU2\tNV1\tNV2\t X \tNV2\tSYS\t20-39,60-79\t1\t\t4\t',
      'GPU3\tNV2\tNV1\tNV2\t X \tSYS\t20-39,60-79\t1\t\t5',
      'NIC0\tNODE\tNODE\tSYS\tSYS\t X ',
      '',
      'Legend:',
      '',
      '  X    = Self',
      '  NV#  = Connection traversing a bonded set of # NVLinks',
      '',
      'NIC Legend:',
      '',
      '  NIC0: mlx5_0',
      '',
    ].join('\r\n');
    const t = topologyOf(text);
    expect(t.labels).toEqual(['GPU0', 'GPU1', 'GPU2', 'GPU3', 'NIC0']);
    expect(t.matrix[0]?.map((c) => c.nvlinks)).toEqual([null, 1, 1, 2, null]);
    expect(kind(t, 'GPU2', 'NIC0')).toBe('SYS');
    expect(t.gpuNumaId).toEqual(['2', '3', '4', '5', null]);
    expect(t.numaAffinity).toEqual(['0', '0', '1', '1', null]);
    expect(t.nicNames).toEqual({ NIC0: 'mlx5_0' });
  });

  it('reads an old-driver matrix: NICs named mlx5_N, only a CPU Affinity column', () => {
    const text = [
      '\tGPU0\tGPU1\tmlx5_0\tCPU Affinity',
      'GPU0\t X \tNV2\tPHB\t0-19',
      'GPU1\tNV2\t X \tSOC\t0-19',
      'mlx5_0\tPHB\tSOC\t X \t',
    ].join('\n');
    const t = topologyOf(text);
    expect(t.labels).toEqual(['GPU0', 'GPU1', 'mlx5_0']);
    expect(t.cpuAffinity).toEqual(['0-19', '0-19', null]);
    expect(t.numaAffinity).toEqual([null, null, null]);
    expect(t.gpuNumaId).toEqual([null, null, null]);
    expect(t.matrix[1]?.[2]).toEqual({ kind: 'SYS', nvlinks: null, raw: 'SOC' });
  });

  it('keeps unknown cell kinds in the matrix', () => {
    const t = topologyOf('\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tC2C\t0-71\nGPU1\tC2C\t X \t72-143\n');
    expect(t.matrix[0]?.[1]).toEqual({ kind: 'UNKNOWN', nvlinks: null, raw: 'C2C' });
  });
});

describe('parseTopology: failures', () => {
  it('returns null plus a warning for the Windows "missing its value" error', () => {
    const r = parseTopology('ERROR: Option -m is missing its value\r\n');
    expect(r.topology).toBeNull();
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('ERROR: Option -m is missing its value');
  });

  it('returns null plus a warning for garbage and for nothing', () => {
    for (const text of ['', 'lorem ipsum\n\tfoo\tbar\n', '\tGPU0\tCPU Affinity\n\nLegend:\n']) {
      const r = parseTopology(text);
      expect(r.topology).toBeNull();
      expect(r.warnings).toHaveLength(1);
    }
  });

  it('warns about a device column without a row', () => {
    const r = parseTopology('\tGPU0\tGPU1\nGPU0\t X \tNV4\n');
    expect(r.topology?.matrix[1]?.map((c) => c.kind)).toEqual(['UNKNOWN', 'UNKNOWN']);
    expect(r.warnings[0]).toContain('GPU1');
  });
});
