// typescript-eslint, strict where it catches bugs. The core must stay pure: no Node,
// Electron, DOM or native-module imports (layers as in VS Code: core <- adapters).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'src-renderer/dist/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The API contract is shared with the renderer: as pure as the core.
    files: ['src-main/core/**/*.ts', 'src-main/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'worker_threads'],
              message: 'core is pure: no Node APIs',
            },
            {
              group: ['electron', 'better-sqlite3', 'onnxruntime-node', 'systeminformation'],
              message: 'core is pure: adapters wrap these',
            },
            {
              group: ['**/adapters/**', '**/services/**', '**/cli/**', '**/electron/**', '**/http/**', '**/app/**'],
              message: 'core must not import outer layers',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'window', 'document', 'Buffer', 'require'],
    },
  },
);
