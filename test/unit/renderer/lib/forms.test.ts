import { describe, expect, it } from 'vitest';
import { parseDims, parseInputShapes, parseThreads, planRequest } from '../../../../src-renderer/src/lib/forms.js';
import { CHANNELS } from '../../../../src-main/api/contract.js';

const form = {
  workload: 'paddle',
  mode: 'training' as const,
  batch: 8,
  localDevices: ['cpu'],
  machines: [],
  virtual: {},
  network: '',
  topN: 5,
};

describe('plan form', () => {
  it('builds a request the contract accepts', () => {
    const r = planRequest({
      ...form,
      machines: ['gpu-box', 'lab-2'],
      virtual: { 'NVIDIA H100 SXM5 80GB': 1, 'NVIDIA L40S': 0 },
      network: '25GbE',
    });
    expect(r).toEqual({
      ok: true,
      request: {
        workload: 'paddle',
        mode: 'training',
        batch: 8,
        devices: 'cpu',
        topN: 5,
        machine: 'gpu-box,lab-2',
        virtual: ['NVIDIA H100 SXM5 80GB'],
        network: '25GbE',
      },
    });
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
  });

  it('plans without local devices as devices "none"', () => {
    const r = planRequest({ ...form, localDevices: [], virtual: { 'NVIDIA L40S': 1 } });
    expect(r.ok && r.request.devices).toBe('none');
  });

  it('sends a datasheet GPU as many times as its count: 2x RTX 4090 and 8x H100 in one request', () => {
    const r = planRequest({
      ...form,
      localDevices: [],
      virtual: { 'NVIDIA GeForce RTX 4090': 2, 'NVIDIA H100 SXM5 80GB': 8, 'NVIDIA L40S': 0 },
    });
    expect(r.ok && r.request.virtual).toEqual([
      ...Array<string>(2).fill('NVIDIA GeForce RTX 4090'),
      ...Array<string>(8).fill('NVIDIA H100 SXM5 80GB'),
    ]);
    const many = planRequest({ ...form, virtual: { A: 64, B: 64, C: 64, D: 64 } });
    expect(many.ok && many.request.virtual).toHaveLength(256);
    if (many.ok) expect(CHANNELS['plan:create'].request.safeParse(many.request).success).toBe(true);
  });

  it('refuses a datasheet count that is not a whole number from 0 to 64', () => {
    for (const n of [65, -1, 2.5, Number.NaN])
      expect(planRequest({ ...form, virtual: { 'NVIDIA L40S': n } }), String(n)).toMatchObject({
        ok: false,
        error: /NVIDIA L40S: a count from 0 to 64/,
      });
    // Only zeros: no datasheet GPU, and without another device nothing to plan.
    expect(planRequest({ ...form, localDevices: [], virtual: { 'NVIDIA L40S': 0 } })).toMatchObject({
      ok: false,
      error: /at least one device/,
    });
  });

  it('sends the sequence asked, none for an empty field (the model default), and refuses one that is not a count', () => {
    const r = planRequest({ ...form, seq: '2048' });
    expect(r.ok && r.request.seq).toBe(2048);
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
    for (const empty of ['', ' ', null, undefined]) {
      const d = planRequest({ ...form, seq: empty });
      expect(d.ok && 'seq' in d.request, String(empty)).toBe(false);
    }
    for (const bad of [0, 1.5, 'x', 2 ** 20 + 1])
      expect(planRequest({ ...form, seq: bad }), String(bad)).toMatchObject({ ok: false, error: /^Sequence must be/ });
  });

  it('refuses no devices, no workload and a bad batch before sending', () => {
    expect(planRequest({ ...form, localDevices: [] })).toMatchObject({ ok: false, error: /at least one device/ });
    expect(planRequest({ ...form, workload: '' })).toMatchObject({ ok: false, error: /workload/ });
    expect(planRequest({ ...form, batch: '2.5' })).toMatchObject({ ok: false, error: /Batch/ });
    expect(planRequest({ ...form, batch: 0 })).toMatchObject({ ok: false });
    // No batch chosen: none sent, and the service's default is marked as one.
    for (const batch of [null, '', ' ']) {
      const r = planRequest({ ...form, batch });
      expect(r.ok && 'batch' in r.request).toBe(false);
    }
  });
});

describe('profile and workload fields', () => {
  it('reads thread counts', () => {
    expect(parseThreads('')).toBeNull();
    expect(parseThreads('1, 4')).toEqual([1, 4]);
    expect(parseThreads('0')).toMatch(/Threads/);
    expect(parseThreads('1,2,3,4,5,6,7,8,9')).toMatch(/at most 8/);
  });

  it('reads input shapes and symbolic dims', () => {
    expect(parseInputShapes('x=1x3x48x192')).toEqual({ x: [1, 3, 48, 192] });
    expect(parseInputShapes('ids=1x128; mask = 1 x 128')).toEqual({ ids: [1, 128], mask: [1, 128] });
    expect(parseInputShapes('')).toEqual({});
    expect(parseInputShapes('x=1x0')).toMatch(/≥ 1/);
    expect(parseInputShapes('1x3x48')).toMatch(/name=AxBxC/);
    expect(parseDims('batch=1, seq=128')).toEqual({ batch: 1, seq: 128 });
    expect(parseDims('batch=-1')).toMatch(/Symbolic dims/);
  });
});

describe('plan form offload', () => {
  it('sends the optimizer offload choice for training only', () => {
    const t = planRequest({ ...form, offload: 'yes' });
    expect(t.ok && t.request.offload).toBe('yes');
    const i = planRequest({ ...form, mode: 'inference', offload: 'yes' });
    expect(i.ok && i.request.offload).toBeUndefined();
  });

  it('sends the serving fields for inference: weights, engine, objective, output and prompt tokens', () => {
    const serving = {
      weights: 'int4',
      engine: 'sglang',
      objective: 'throughput' as const,
      tokens: 512,
      prompt: '2048',
    };
    const r = planRequest({ ...form, mode: 'inference', batch: 1, serving });
    expect(r).toMatchObject({
      ok: true,
      request: {
        mode: 'inference',
        batch: 1,
        weights: 'int4',
        engine: 'sglang',
        objective: 'throughput',
        tokens: 512,
        prompt: 2048,
      },
    });
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
    // Empty fields take the defaults (the model's dtype, 256 tokens, a 1024-token prompt): nothing sent.
    const blank = planRequest({
      ...form,
      mode: 'inference',
      serving: { weights: '', engine: 'auto', objective: 'latency', tokens: '', prompt: '' },
    });
    expect(blank.ok && blank.request).not.toHaveProperty('weights');
    expect(blank.ok && blank.request).not.toHaveProperty('engine');
    expect(blank.ok && blank.request).not.toHaveProperty('tokens');
    expect(blank.ok && blank.request).not.toHaveProperty('prompt');
    // Training sends none of them.
    const training = planRequest({ ...form, serving });
    expect(training.ok && training.request).not.toHaveProperty('weights');
    expect(training.ok && training.request).not.toHaveProperty('objective');
  });

  it('refuses output or prompt tokens that are not whole numbers of at least 1', () => {
    const serving = { weights: '', engine: 'auto', objective: 'latency' as const, tokens: '0', prompt: '' };
    expect(planRequest({ ...form, mode: 'inference', serving })).toMatchObject({ ok: false, error: /Output tokens/ });
    expect(
      planRequest({ ...form, mode: 'inference', serving: { ...serving, tokens: '', prompt: '1.5' } }),
    ).toMatchObject({ ok: false, error: /Prompt tokens/ });
  });
});

describe('plan form ZeRO stage and layout', () => {
  it('sends a fixed ZeRO stage when training (auto sends none) and the layout as typed', () => {
    const r = planRequest({ ...form, zero: '3', layout: ' tp=2,pp=1,zero=3 ' });
    expect(r).toMatchObject({ ok: true, request: { zero: 3, layout: 'tp=2,pp=1,zero=3' } });
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
    const auto = planRequest({ ...form, zero: 'auto', layout: '' });
    expect(auto.ok && auto.request.zero).toBeUndefined();
    expect(auto.ok && auto.request.layout).toBeUndefined();
    const serving = planRequest({ ...form, mode: 'inference', zero: '1' });
    expect(serving.ok && serving.request.zero).toBeUndefined();
  });

  it('sends the training stack when training, which plan:create takes; any and fine-tuning send none', () => {
    const r = planRequest({ ...form, mode: 'training', stack: 'torchtitan' });
    expect(r).toMatchObject({ ok: true, request: { stack: 'torchtitan' } });
    if (r.ok) expect(CHANNELS['plan:create'].request.safeParse(r.request).success).toBe(true);
    const any = planRequest({ ...form, mode: 'training', stack: '' });
    expect(any.ok && any.request.stack).toBeUndefined();
    const tuned = planRequest({ ...form, mode: 'finetune', stack: 'megatron' });
    expect(tuned.ok && tuned.request.stack).toBeUndefined();
  });

  it('refuses a layout longer than the contract takes', () => {
    expect(planRequest({ ...form, layout: 'tp=1,'.repeat(50) })).toEqual({
      ok: false,
      error: 'Layout: at most 200 characters, like tp=2,pp=4,dp=1,zero=1,recompute=full,mb=8.',
    });
  });
});

describe('plan form precision', () => {
  it('sends the dtype chosen (fp8 included) and none for the catalog default', () => {
    const fp8 = planRequest({ ...form, dtype: 'fp8' });
    expect(fp8).toMatchObject({ ok: true, request: { dtype: 'fp8' } });
    if (fp8.ok) expect(CHANNELS['plan:create'].request.safeParse(fp8.request).success).toBe(true);
    const dflt = planRequest({ ...form, dtype: '' });
    expect(dflt.ok && dflt.request.dtype).toBeUndefined();
  });
});
