import { describe, expect, it } from 'vitest';
import {
  cellNumber,
  cellValue,
  headerName,
  parseCsv,
  toRecords,
} from '../../../../src-main/adapters/nvidia-smi/parse-csv.js';
import { cleanText } from '../../../../src-main/adapters/nvidia-smi/text.js';
import { CAPTURES, captureSection } from '../../../helpers/fake-nvidia-smi.js';

describe('cellValue', () => {
  it.each([
    '[N/A]',
    'N/A',
    '[Not Supported]',
    '[Requested functionality has been deprecated]',
    '[Function Not Found]',
    '[Insufficient Permissions]',
    '[Unknown Error]',
    '[GPU is lost]',
    '[Some future sentinel]',
    '',
    '   ',
  ])('turns the sentinel %j into null', (raw) => {
    expect(cellValue(raw)).toBeNull();
  });

  it('keeps real values, trimmed', () => {
    expect(cellValue(' NVIDIA H100 80GB HBM3 ')).toBe('NVIDIA H100 80GB HBM3');
    expect(cellValue('Enabled')).toBe('Enabled');
    expect(cellValue(undefined)).toBeNull();
  });
});

describe('cellNumber', () => {
  it('parses numbers with or without units', () => {
    expect(cellNumber('81559')).toBe(81559);
    expect(cellNumber('81559 MiB')).toBe(81559);
    expect(cellNumber('700.00 W')).toBe(700);
    expect(cellNumber('1980 MHz')).toBe(1980);
    expect(cellNumber('26.562')).toBeCloseTo(26.562);
    expect(cellNumber('38 %')).toBe(38);
  });

  it('is null for sentinels and non-numbers', () => {
    expect(cellNumber('[N/A]')).toBeNull();
    expect(cellNumber('[Not Supported]')).toBeNull();
    expect(cellNumber('Enabled')).toBeNull();
    expect(cellNumber('12abc34')).toBeNull();
    expect(cellNumber('')).toBeNull();
  });
});

describe('headers', () => {
  it('strips units', () => {
    expect(headerName('memory.total [MiB]')).toBe('memory.total');
    expect(headerName('compute_cap')).toBe('compute_cap');
  });
});

describe('parseCsv', () => {
  it('strips ANSI codes and carriage returns', () => {
    expect(cleanText('\x1b[4mGPU0\x1b[0m\r\n')).toBe('GPU0\n');
    const t = parseCsv('0, \x1b[1mNVIDIA A100\x1b[0m, [N/A]\r\n1, NVIDIA A100, 40960 MiB\r\n', { header: false });
    expect(t.header).toBeNull();
    expect(t.rows).toEqual([
      ['0', 'NVIDIA A100', '[N/A]'],
      ['1', 'NVIDIA A100', '40960 MiB'],
    ]);
  });

  it('reads the header+units CSV of the H100 capture', () => {
    const csv = captureSection(CAPTURES.h100, /^nvidia-smi --query-gpu=/); // idle
    const t = parseCsv(csv, { header: true });
    const header = t.header ?? [];
    expect(t.rows).toHaveLength(1);
    const row = t.rows[0] ?? [];
    expect(row).toHaveLength(header.length);
    const get = (f: string): string | undefined => row[header.indexOf(f)];
    expect(get('name')).toBe('NVIDIA H100 80GB HBM3');
    expect(cellNumber(get('memory.total'))).toBe(81559);
    expect(get('compute_cap')).toBe('9.0');
    expect(cellNumber(get('power.limit'))).toBe(700);
    expect(cellValue(get('pcie.link.gen.hostmax'))).toBeNull(); // "[N/A]" on this VM
    expect(cellValue(get('pcie.link.width.current'))).toBe('16');
  });
});

describe('toRecords', () => {
  it('joins surplus cells into the last field and rejects short rows', () => {
    const { records, invalid } = toRecords(['index', 'name'], [['0', 'Weird', ' Name'], ['garbage']]);
    expect(records[0]?.get('name')).toBe('Weird,  Name');
    expect(invalid).toEqual([['garbage']]);
  });
});
