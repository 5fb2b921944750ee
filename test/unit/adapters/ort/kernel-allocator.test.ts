import { describe, expect, it } from 'vitest';
import { kernelAllocatorEnv } from '../../../../src-main/adapters/ort/kernel-allocator.js';

describe('the kernel child allocator environment', () => {
  it('adds the tunables to an environment without any', () => {
    const env = kernelAllocatorEnv({ PATH: '/usr/bin' });
    expect(env.PATH).toBe('/usr/bin');
    expect(env.GLIBC_TUNABLES).toBe('glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296');
  });

  it('keeps what the user set and does not set a tunable twice', () => {
    const env = kernelAllocatorEnv({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536:glibc.malloc.tcache_count=0' });
    expect(env.GLIBC_TUNABLES).toBe(
      'glibc.malloc.mmap_threshold=65536:glibc.malloc.tcache_count=0:glibc.malloc.trim_threshold=4294967296',
    );
  });

  it('does not change the environment it is given', () => {
    const given = { GLIBC_TUNABLES: '' };
    kernelAllocatorEnv(given);
    expect(given.GLIBC_TUNABLES).toBe('');
  });
});
