// @ts-check
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Folders of core/ that the renderer may import: they run anywhere. */
const ISOMORPHIC = ['core/model/**', 'core/nodes/**', 'core/api/**', 'core/formats/**'];
/** Folders of core/ that need Node (a regex alternation); only hosts import them. */
const NODE_ONLY_DIRS = 'store|host|cli|engine|providers|mcp';
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const UI_PACKAGES = [
  'react',
  'react-dom',
  'react/*',
  'react-dom/*',
  '@xyflow/*',
  'zustand',
  'zustand/*',
  '@codemirror/*',
];

const restrict = (paths, patterns) => ['error', { paths, patterns }];
const names = (list, message) => list.map((name) => ({ name, message }));

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'test-results/**',
      'playwright-report/**',
      'resources/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: [
          './core/tsconfig.json',
          './core/tsconfig.node.json',
          './renderer/tsconfig.json',
          './electron/tsconfig.json',
          './tsconfig.tests.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', 'bin/*'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**'],
    rules: {
      // Vitest's asymmetric matchers (expect.objectContaining, …) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='only']", message: 'no .only in tests' },
      ],
    },
  },
  // Dependency direction: core imports neither Electron nor UI; its isomorphic
  // part imports nothing Node-only; the renderer reaches only the isomorphic part.
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [...names(['electron'], 'core/ never imports Electron'), ...names(UI_PACKAGES, 'core/ never imports UI code')],
        [{ group: ['**/renderer/**', '**/electron/**'], message: 'core/ does not depend on its hosts' }],
      ),
    },
  },
  {
    files: ISOMORPHIC,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          ...names(['electron'], 'core/ never imports Electron'),
          ...names(UI_PACKAGES, 'core/ never imports UI code'),
          ...names(NODE_BUILTINS, 'the isomorphic part of core runs in the renderer too: no Node built-ins'),
          ...names(
            ['better-sqlite3', 'drizzle-orm', 'commander'],
            'Node-only packages belong in the Node part of core',
          ),
        ],
        [
          { group: ['**/renderer/**', '**/electron/**'], message: 'core/ does not depend on its hosts' },
          { regex: `(^|/)(${NODE_ONLY_DIRS})(/|$)`, message: 'the isomorphic part cannot import the Node part' },
        ],
      ),
    },
  },
  {
    files: ['renderer/src/**/*.ts', 'renderer/src/**/*.tsx', 'renderer/bench/**/*.tsx'],
    rules: {
      'no-restricted-imports': restrict(
        [
          ...names(['electron'], 'the renderer talks to the host only through the typed API'),
          ...names(NODE_BUILTINS, 'the renderer runs in a browser: no Node built-ins'),
          ...names(['better-sqlite3', 'drizzle-orm', 'commander'], 'Node-only packages stay in core'),
        ],
        [
          { group: ['**/electron/**'], message: 'the renderer talks to the host only through the typed API' },
          { regex: `(^|/)core/(${NODE_ONLY_DIRS})(/|$)`, message: "the renderer imports only core's isomorphic part" },
        ],
      ),
    },
  },
  {
    files: ['electron/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(names(UI_PACKAGES, 'electron/ is wiring only'), [
        { group: ['**/renderer/**'], message: 'electron/ loads the renderer build, it does not import it' },
      ]),
    },
  },
);
