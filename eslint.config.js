// Lint rules that keep the layering of ../shared/design/architecture.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['fs', 'child_process', 'net', 'http', 'https', 'os', 'path', 'worker_threads', 'crypto']
  .flatMap((m) => [m, `node:${m}`, `${m}/*`, `node:${m}/*`]);

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'release/**', 'test-results/**', 'playwright-report/**', '.data/**', 'docs/openapi.json', '.bench/**', '.data/**', '.pw-*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'no-undef': 'off', // TypeScript checks names
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // Only electron/app imports electron; nobody uses raw ipcMain/ipcRenderer outside the bridge wrappers.
    files: ['shared/**', 'server/**', 'electron/services/**', 'electron/web/**', 'renderer/**', 'web-client/**', 'tools/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only electron/app/ may import electron.' }] }],
    },
  },
  {
    // Inside electron/app only the entries load Electron; every other module gets it handed in
    // (electron-api.ts types), so vitest drives them with fakes. Tests may import its types only.
    files: ['electron/app/**', 'electron/test/**'],
    ignores: ['electron/app/main.ts', 'electron/app/preload.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', allowTypeImports: true, message: 'Only the entries (electron/app/main.ts, preload.ts) load electron; hand what you need in through electron-api.ts.' }] },
      ],
    },
  },
  {
    // The entries hand Electron in; raw ipcMain/ipcRenderer are used only by the bridge in electron/app/ipc/.
    files: ['electron/app/main.ts', 'electron/app/preload.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name=/^ipc(Main|Renderer)$/]", message: 'Use the typed bridge wrappers in electron/app/ipc/.' },
      ],
    },
  },
  {
    // The renderer runs sandboxed: no Node, no network but window.studio.
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks to nothing but window.studio.' }],
          patterns: [
            { group: nodeBuiltins, message: 'The renderer runs without Node.' },
            { group: ['**/server/**', '**/electron/**'], message: 'The renderer may import shared/ only.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'The renderer reaches the network only through window.studio.' }],
    },
  },
  {
    // The web shell's window.studio runs in the browser: no Node, nothing but shared/.
    files: ['web-client/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'The web client runs in the browser, without Node.' },
            { group: ['**/server/**', '**/electron/**', '**/renderer/**'], message: 'The web client may import shared/ only.' },
          ],
        },
      ],
    },
  },
  {
    // shared/ runs in the browser too.
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'shared/ is imported by every side.' }],
          patterns: [{ group: [...nodeBuiltins, '**/server/**', '**/electron/**', '**/renderer/**'], message: 'shared/ must not depend on a side or on Node.' }],
        },
      ],
    },
  },
);
