import { describe, expect, it } from 'vitest';
import { parseSummaryHeader, parseVersionOutput } from '../../../../src-main/adapters/nvidia-smi/parse-version.js';
import { CAPTURES, captureSection } from '../../../helpers/fake-nvidia-smi.js';

describe('parseVersionOutput (nvidia-smi --version)', () => {
  it('reads driver and CUDA versions of the Linux captures', () => {
    expect(parseVersionOutput(captureSection(CAPTURES.h100, 'nvidia-smi --version'))).toEqual({
      driverVersion: '590.48.01',
      cudaVersion: '13.1',
    });
    expect(parseVersionOutput(captureSection(CAPTURES.rtx4080Super, 'nvidia-smi --version'))).toEqual({
      driverVersion: '595.71.05',
      cudaVersion: '13.2',
    });
  });

  it('reads the KMD / CUDA UMD lines of Windows R610, skipping the "Deprecated" ones', () => {
    expect(parseVersionOutput(captureSection(CAPTURES.windows2080Super, 'nvidia-smi --version'))).toEqual({
      driverVersion: '610.62',
      cudaVersion: '13.3',
    });
  });

  it('gives nulls for an old driver that rejects --version', () => {
    expect(parseVersionOutput("Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.")).toEqual({
      driverVersion: null,
      cudaVersion: null,
    });
  });
});

describe('parseSummaryHeader (plain nvidia-smi)', () => {
  it('reads the header of the H100 and Windows captures', () => {
    expect(parseSummaryHeader(captureSection(CAPTURES.h100, 'nvidia-smi'))).toEqual({
      driverVersion: '590.48.01',
      cudaVersion: '13.1',
    });
    expect(parseSummaryHeader(captureSection(CAPTURES.windows2080Super, 'nvidia-smi'))).toEqual({
      driverVersion: '610.62',
      cudaVersion: '13.3',
    });
  });

  it('reads an older header and ignores "CUDA Version: N/A"', () => {
    expect(
      parseSummaryHeader('| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |'),
    ).toEqual({
      driverVersion: '535.104.05',
      cudaVersion: '12.2',
    });
    expect(
      parseSummaryHeader('| NVIDIA-SMI 470.57.02  Driver Version: 470.57.02  CUDA Version: N/A |').cudaVersion,
    ).toBeNull();
  });
});
