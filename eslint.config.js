// typescript-eslint, strict where it catches bugs, and the layering rule (as VS Code's):
//   core  <-  adapters  <-  services  <-  app  <-  http | cli | electron
//   core  <-  api (the typed contract)  <-  app, http, electron, renderer
// Each folder may import only the layers beneath it. The renderer sees src-main/api and nothing
// else of src-main (its .svelte files are checked by test/unit/repo/layer-rules.test.ts).
import tseslint from 'typescript-eslint';

const NODE_APIS = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'worker_threads', 'http', 'net'];
const NATIVE = ['electron', 'better-sqlite3', 'onnxruntime-node', 'systeminformation'];

/** A `no-restricted-imports` rule forbidding the named layers of src-main (by folder). */
function layers(forbidden, message, extra = []) {
  return [
    'error',
    {
      patterns: [...extra, { group: forbidden.map((l) => `**/${l}/**`), message }],
    },
  ];
}

/** A layer that runs anywhere (the renderer too): no Node API, native module or global, nothing above it. */
function pureLayer(files, name, forbidden) {
  return {
    files,
    rules: {
      'no-restricted-imports': layers(forbidden, `${name} imports nothing above it (see the layer picture)`, [
        { group: NODE_APIS, message: `${name} is pure: no Node APIs` },
        { group: NATIVE, message: `${name} is pure: adapters wrap these` },
      ]),
      'no-restricted-globals': ['error', 'process', 'window', 'document', 'Buffer', 'require'],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'release/**',
      'node_modules/**',
      'coverage/**',
      '.tmp/**',
      'src-renderer/dist/**',
      'bundle/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  pureLayer(['src-main/core/**/*.ts'], 'core', ['adapters', 'api', 'services', 'app', 'cli', 'electron', 'http']),
  // The API contract is shared with the renderer: as pure as the core, and over it.
  pureLayer(['src-main/api/**/*.ts'], 'api', ['adapters', 'services', 'app', 'cli', 'electron', 'http']),
  {
    files: ['src-main/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': layers(
        ['api', 'services', 'app', 'cli', 'electron', 'http'],
        'adapters import only core and other adapters',
      ),
    },
  },
  {
    files: ['src-main/services/**/*.ts'],
    rules: {
      'no-restricted-imports': layers(
        ['api', 'app', 'cli', 'http'],
        'services import only core and adapters; shells call services, not the reverse',
        [{ group: ['electron'], message: 'services run headless: no Electron (package or folder)' }],
      ),
    },
  },
  {
    files: ['src-main/app/**/*.ts'],
    rules: {
      'no-restricted-imports': layers(
        ['cli', 'http'],
        'app is shared by every shell: it imports core, adapters, api and services only',
        [{ group: ['electron'], message: 'app runs headless too: no Electron (package or folder)' }],
      ),
    },
  },
  {
    files: ['src-main/http/**/*.ts'],
    rules: { 'no-restricted-imports': layers(['cli', 'electron', 'services'], 'http is a shell over app (dispatch)') },
  },
  {
    files: ['src-main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': layers(['cli', 'http'], 'electron is a shell of its own: not over cli or http') },
  },
  {
    files: ['src-main/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['electron'], message: 'the CLI runs without Electron (package or folder)' }] },
      ],
    },
  },
  {
    files: ['src-renderer/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: NODE_APIS, message: 'the renderer runs in a browser: no Node APIs' },
            { group: NATIVE, message: 'the renderer reaches the machine only through the API client' },
            {
              regex: '(^|/)src-main/(?!api/)',
              message: 'the renderer imports only src-main/api (the typed contract and client)',
            },
          ],
        },
      ],
    },
  },
);
