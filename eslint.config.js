// Layer rules of the station (docs/architecture.md): which folder may import what.
// They are errors, never warnings: a wrong import fails the lint and so the test command.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`), 'node:*'];

const forbid = {
  // A regex, so that the folder src/main/electron (imported by tests) is not mistaken for the package.
  electron: { regex: '^electron(/.*)?$', message: 'Only src/main/electron and src/preload may import electron.' },
  node: { group: nodeBuiltins, message: 'This layer runs outside Node: no node:* or built-in modules.' },
  main: { group: ['**/main', '**/main/**'], message: 'This layer may not import src/main.' },
  renderer: { group: ['**/renderer', '**/renderer/**'], message: 'This layer may not import src/renderer.' },
  preload: { group: ['**/preload', '**/preload/**'], message: 'This layer may not import src/preload.' },
  sandbox: {
    group: ['**/sandbox', '**/sandbox/**'],
    message: 'src/main reaches the sandbox only through src/main/embedded-sandbox.ts.',
  },
  // A relative path into the store folder: the rest of src/main goes through its entry, src/main/store/index.ts.
  store: { regex: '^\\.{1,2}/(\\.\\./)*store/', message: 'Outside src/main/store, import the store from its entry (src/main/store/index.ts).' },
};

const layer = (files, rules, extra = {}) => ({
  files,
  ...extra,
  rules: {
    'no-restricted-imports': ['error', { patterns: rules.map((key) => forbid[key]) }],
    ...(extra.rules ?? {}),
  },
});

// Browser globals that src/shared must not touch: it runs in Node, in the preload and in the page.
const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'HTMLElement', 'Element', 'Node', 'Event', 'KeyboardEvent', 'CustomEvent', 'alert', 'fetch', 'XMLHttpRequest', 'WebSocket', 'indexedDB'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.cache/**', 'test-results/**', 'playwright-report/**', 'test/fixtures/lint/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [forbid.electron] }],
    },
  },
  layer(['src/shared/**'], ['electron', 'node', 'main', 'renderer', 'preload', 'sandbox'], {
    languageOptions: { globals: {} },
    rules: { 'no-restricted-globals': ['error', ...domGlobals.map((name) => ({ name, message: 'src/shared uses no DOM globals.' }))] },
  }),
  layer(['src/main/**'], ['electron', 'renderer', 'sandbox', 'preload', 'store']),
  layer(['src/main/store/**'], ['electron', 'renderer', 'sandbox', 'preload']),
  layer(['src/main/embedded-sandbox.ts'], ['electron', 'renderer', 'preload', 'store']),
  layer(['src/main/electron/**'], ['renderer', 'sandbox', 'preload', 'store']),
  layer(['src/preload/**'], ['node', 'main', 'renderer', 'sandbox'], { languageOptions: { globals: { ...globals.browser } } }),
  layer(['src/renderer/**'], ['electron', 'node', 'main', 'sandbox', 'preload'], {
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  }),
  layer(['src/sandbox/**'], ['electron', 'main', 'renderer', 'preload']),
);
