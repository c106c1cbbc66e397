// @ts-check
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * The layers of core/ as an allowlist: each folder may import itself and the
 * folders listed, nothing else (VS Code's code-layering). A folder missing
 * from this table may import no other folder, and none may import it, so a
 * new folder or a back-edge (mcp → host, model → nodes) fails lint the day it
 * is written. Tests are exempt: they wire layers together on purpose.
 */
const CORE_LAYERS = {
  model: [],
  nodes: ['model'],
  formats: ['model'],
  api: ['model', 'formats'],
  editing: ['model', 'nodes'],
  engine: ['model', 'nodes'],
  providers: ['model'],
  store: ['model', 'nodes'],
  tools: ['model'],
  services: ['model', 'nodes', 'formats', 'api', 'editing', 'engine', 'providers', 'store', 'tools'],
  mcp: ['model', 'nodes', 'store', 'services'],
  host: ['model', 'api', 'services', 'mcp'],
  cli: ['model', 'nodes', 'formats', 'providers', 'store', 'services', 'mcp', 'host'],
};
/** The part of core that runs anywhere (no Node built-ins); the renderer may import only these. */
const ISOMORPHIC_LAYERS = ['model', 'nodes', 'formats', 'api', 'editing'];
/** What electron/ may import of core: it wires the host to a window. */
const ELECTRON_LAYERS = ['model', 'api', 'services', 'host', 'mcp'];
const CORE_FOLDERS = readdirSync(join(import.meta.dirname, 'core'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const deniedOf = (allowed, self) => CORE_FOLDERS.filter((f) => f !== self && !allowed.includes(f));
/** Matches a relative import that climbs out of the folder into one of `folders`. */
const climbsInto = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;
/** Matches an import of core/<one of folders> from outside core. */
const coreFolder = (folders) => `(^|/)core/(${folders.join('|')})(/|$)`;
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
      // The bundled configs electron-vite and vite write beside their config while they build: `.ci/run`
      // lints during the app build, and eslint failed (ENOENT) on one deleted between its listing and its read.
      '**/*.config.ts.*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // TypeScript's project service (what editors use) finds each file's project through the root
        // tsconfig.json's references. It took 17 % less CPU than the list of the same five projects
        // (a clean checkout here: 90 s against 107), and a file in none of them still fails lint.
        projectService: true,
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
  // Dependency direction: core imports neither Electron nor UI; each core folder
  // imports only the layers CORE_LAYERS allows; the isomorphic ones nothing Node-only.
  ...[undefined, ...Object.keys(CORE_LAYERS)].map((folder) => {
    const isIsomorphic = ISOMORPHIC_LAYERS.includes(folder);
    const denied = folder ? deniedOf(CORE_LAYERS[folder], folder) : CORE_FOLDERS;
    return {
      files: folder ? [`core/${folder}/**/*.ts`, `core/${folder}/**/*.mjs`] : ['core/**/*.ts', 'core/**/*.mjs'],
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': restrict(
          [
            ...names(['electron'], 'core/ never imports Electron'),
            ...names(UI_PACKAGES, 'core/ never imports UI code'),
            ...(isIsomorphic
              ? [
                  ...names(NODE_BUILTINS, 'the isomorphic part of core runs in the renderer too: no Node built-ins'),
                  ...names(
                    ['better-sqlite3', 'drizzle-orm', 'commander'],
                    'Node-only packages belong in the Node part of core',
                  ),
                ]
              : []),
          ],
          [
            { group: ['**/renderer/**', '**/electron/**'], message: 'core/ does not depend on its hosts' },
            ...(denied.length > 0
              ? [
                  {
                    regex: climbsInto(denied),
                    message: folder
                      ? `core/${folder} may import only ${['itself', ...CORE_LAYERS[folder]].join(', ')} (CORE_LAYERS in eslint.config.js)`
                      : 'this core folder is not in CORE_LAYERS (eslint.config.js): add it with the layers it may import',
                  },
                ]
              : []),
          ],
        ),
      },
    };
  }),
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
          {
            regex: coreFolder(CORE_FOLDERS.filter((f) => !ISOMORPHIC_LAYERS.includes(f))),
            message: `the renderer imports only core's isomorphic part (${ISOMORPHIC_LAYERS.join(', ')})`,
          },
        ],
      ),
    },
  },
  // electron/: wiring only. Its desktop/ modules take Electron's API as a parameter
  // (type imports only), so plain-Node tests drive them with a double.
  ...[
    { files: ['electron/*.ts'], extra: [] },
    {
      files: ['electron/desktop/**/*.ts'],
      extra: [
        {
          name: 'electron',
          allowTypeImports: true,
          message: 'desktop/ modules get Electron through DesktopShell (main.ts), so tests run them without Electron',
        },
      ],
    },
  ].map(({ files, extra }) => ({
    files,
    rules: {
      'no-restricted-imports': restrict(
        [...names(UI_PACKAGES, 'electron/ is wiring only'), ...extra],
        [
          { group: ['**/renderer/**'], message: 'electron/ loads the renderer build, it does not import it' },
          {
            regex: coreFolder(CORE_FOLDERS.filter((f) => !ELECTRON_LAYERS.includes(f))),
            message: `electron/ wires ${ELECTRON_LAYERS.join(', ')} of core together, nothing else`,
          },
        ],
      ),
    },
  })),
);
