import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src-main/core/errors.js';
import { COMMANDS } from '../../../src-main/cli/commands/index.js';
import {
  MACHINE_OPTION,
  THREADS_OPTION,
  THREAD_COUNTS_OPTION,
  deviceOrVirtual,
  profiledDeviceQuery,
} from '../../../src-main/cli/device-options.js';

describe('the options that pick a device', () => {
  it('are declared once: every command taking --device or --threads uses the shared specs', () => {
    const takers = COMMANDS.filter((c) => c.options.device || c.options.threads);
    expect(takers.map((c) => c.name).sort()).toEqual([
      'measure-model',
      'predict',
      'predict-model',
      'profile',
      'roofline',
    ]);
    for (const c of takers) {
      expect(c.options.device?.description, c.name).toMatch(/^cpu, cuda:N, webgpu:N\b/);
      expect([THREADS_OPTION, THREAD_COUNTS_OPTION, undefined], c.name).toContain(c.options.threads);
    }
    for (const c of COMMANDS.filter((x) => x.options.machine?.description === MACHINE_OPTION.description))
      expect(c.options.machine, c.name).toBe(MACHINE_OPTION);
  });

  it('read --threads as one whole thread count and keep --machine when given', () => {
    expect(profiledDeviceQuery({ threads: '8', machine: 'lab' }, 'cpu')).toEqual({
      device: 'cpu',
      threads: 8,
      machine: 'lab',
    });
    expect(profiledDeviceQuery({}, 'cuda:0')).toEqual({ device: 'cuda:0' });
    expect(() => profiledDeviceQuery({ threads: '1,8' }, 'cpu')).toThrow(
      /--threads takes a whole number from 1 to 1024/,
    );
    expect(() => profiledDeviceQuery({ threads: '0' }, 'cpu')).toThrow(UsageError);
  });

  it('take exactly one of --device and --virtual', () => {
    expect(deviceOrVirtual('predict', { device: 'cpu' })).toEqual({ device: 'cpu' });
    expect(deviceOrVirtual('predict', { virtual: 'H100 SXM5' })).toEqual({ virtual: 'H100 SXM5' });
    expect(() => deviceOrVirtual('predict', {})).toThrow('predict: --device or --virtual is required');
    expect(() => deviceOrVirtual('predict-model', { device: 'cpu', virtual: 'RTX 4090' })).toThrow(
      '--virtual and --device name different devices: give one',
    );
  });
});
