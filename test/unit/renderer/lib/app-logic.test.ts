import { describe, expect, it } from 'vitest';
import { tabIndexForKey, viewFromHash, VIEWS } from '../../../../src-renderer/src/lib/nav.js';
import { takeToken } from '../../../../src-renderer/src/lib/token.js';
import { topoGrid, topoRank } from '../../../../src-renderer/src/lib/topology.js';
import { errorMessage } from '../../../../src-renderer/src/lib/errors.js';
import { ApiCallError } from '../../../../src-main/api/client.js';

describe('navigation', () => {
  it('moves between tabs with arrows (wrapping), Home and End', () => {
    expect(tabIndexForKey('ArrowRight', 0, 6)).toBe(1);
    expect(tabIndexForKey('ArrowDown', 5, 6)).toBe(0);
    expect(tabIndexForKey('ArrowLeft', 0, 6)).toBe(5);
    expect(tabIndexForKey('ArrowUp', 3, 6)).toBe(2);
    expect(tabIndexForKey('Home', 4, 6)).toBe(0);
    expect(tabIndexForKey('End', 1, 6)).toBe(5);
    expect(tabIndexForKey('Enter', 1, 6)).toBeNull();
  });

  it('reads the view from the hash', () => {
    expect(viewFromHash('#/plans')).toBe('plans');
    expect(viewFromHash('#library')).toBe('library');
    expect(viewFromHash('#/nope')).toBe('workstation');
    expect(viewFromHash('')).toBe('workstation');
    expect(VIEWS.map((v) => v.id)).toEqual([
      'workstation',
      'profile',
      'predictor',
      'workloads',
      'plans',
      'serving',
      'library',
    ]);
  });
});

describe('session token', () => {
  it('takes the token from the query and leaves the rest of it', () => {
    expect(takeToken('?token=abc', null)).toEqual({ token: 'abc', search: '', fromQuery: true });
    expect(takeToken('?a=1&token=abc&b=2', 'old')).toEqual({ token: 'abc', search: '?a=1&b=2', fromQuery: true });
  });

  it('falls back to the stored token, else none', () => {
    expect(takeToken('', 'kept')).toEqual({ token: 'kept', search: '', fromQuery: false });
    expect(takeToken('?token=', null)).toEqual({ token: null, search: '', fromQuery: true });
    expect(takeToken('', null).token).toBeNull();
  });
});

describe('topology grid', () => {
  it('classes cells from NVLink (fastest) to SYS and lists only the kinds present', () => {
    const g = topoGrid({
      labels: ['GPU0', 'GPU1', 'NIC0'],
      matrix: [
        [
          { kind: 'X', nvlinks: null, raw: 'X' },
          { kind: 'NV', nvlinks: 18, raw: 'NV18' },
          { kind: 'SYS', nvlinks: null, raw: 'SYS' },
        ],
        [
          { kind: 'NV', nvlinks: 18, raw: 'NV18' },
          { kind: 'X', nvlinks: null, raw: 'X' },
          { kind: 'PIX', nvlinks: null, raw: 'PIX' },
        ],
        [
          { kind: 'SYS', nvlinks: null, raw: 'SYS' },
          { kind: 'PIX', nvlinks: null, raw: 'PIX' },
          { kind: 'X', nvlinks: null, raw: 'X' },
        ],
      ],
      cpuAffinity: [null, null, null],
      numaAffinity: [null, null, null],
      gpuNumaId: [null, null, null],
      nicNames: { NIC0: 'mlx5_0' },
    });
    expect(g.kinds).toEqual(['X', 'NV', 'PIX', 'SYS']);
    expect(g.cells[0]?.[1]?.title).toBe('GPU0 ↔ GPU1: NV18 (NVLink (NV# = bonded links))');
    expect(g.cells[1]?.[2]?.title).toMatch(/NIC0 \(mlx5_0\)/);
    expect(topoRank('NV')).toBeLessThan(topoRank('PIX'));
    expect(topoRank('PIX')).toBeLessThan(topoRank('SYS'));
  });
});

describe('error messages', () => {
  it('shows the server line of an API error, an Error message, or a fallback', () => {
    expect(errorMessage(new ApiCallError('user', 'no profile yet', 'plan:create'))).toBe('no profile yet');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage(42)).toMatch(/no message/);
  });
});
