import { describe, expect, it } from 'vitest';
import { engineOf } from '../../../../src-main/core/domain/execution-provider.js';

describe('engineOf', () => {
  it('names the runtime a stored execution provider measured: PyTorch eager or an ONNX Runtime EP', () => {
    expect(engineOf('torch-cpu')).toBe('PyTorch, eager, on the CPU');
    expect(engineOf('torch-cuda')).toBe('PyTorch, eager, on CUDA');
    expect(engineOf('cpu')).toBe('ONNX Runtime, CPU EP');
    expect(engineOf('webgpu')).toBe('ONNX Runtime, WebGPU EP');
  });
});
