/** `plan`'s serving options: the engine as `fit` reads it too (plan-request-options.ts reads the rest). */
import { describe, expect, it } from 'vitest';
import { engineChoice } from '../../../src-main/cli/serving-options.js';
import { ENGINE_CHOICES } from '../../../src-main/core/engines/engine-names.js';

describe('engineChoice', () => {
  it('reads an engine whatever its case and spaces, and names the choices for anything else', () => {
    expect(engineChoice(' llama.CPP ')).toBe('llama.cpp');
    expect(engineChoice('ideal')).toBe('ideal');
    expect(() => engineChoice('vlm')).toThrow(`--engine takes ${ENGINE_CHOICES.join(', ')}; got "vlm"`);
  });
});
